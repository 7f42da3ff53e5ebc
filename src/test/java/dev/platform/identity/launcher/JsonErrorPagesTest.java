package dev.platform.identity.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonErrorPagesTest {
  /**
   * A request line with HTTP/2.0 (505) or a Transfer-Encoding Tomcat does not know (501) is sent by
   * any client, as often as it likes, before the service sees it: each was logged at SEVERE as an
   * incident with a stack-less id, so an unauthenticated client filled the log and the operator's
   * alerts with "incidents" of its own making. They are refusals with a fixed text.
   */
  @Test
  void whenAClientSendsAnUnknownVersionOrTransferEncodingThenNoIncidentIsLogged() {
    try (LogCapture log = LogCapture.of(JsonErrorPages.class.getName())) {
      for (int status : List.of(501, 505)) {
        String error = JsonErrorPages.error(status, null);
        assertFalse(error.contains("incident"), status + ": " + error);
        assertFalse(error.contains("Internal error"), status + ": " + error);
      }
      assertEquals(List.of(), log.messages());
      assertTrue(JsonErrorPages.error(500, null).contains("incident"));
      assertEquals(1, log.messages().size(), "a 500 of Tomcat's own is still an incident");
    }
  }
}
