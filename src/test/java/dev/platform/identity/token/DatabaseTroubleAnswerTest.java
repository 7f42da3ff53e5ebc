package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.http.Incident;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import org.junit.jupiter.api.Test;

/** Issue 35: a busy or slow database is 500 server_error with Retry-After, and no incident. */
class DatabaseTroubleAnswerTest {
  @Test
  void whenAStatementTimedOutThenServerErrorWithRetryAfterAndNoIncident() {
    try (LogCapture incidents = LogCapture.of(Incident.class.getName())) {
      TokenAnswer answer =
          TokenAnswer.ofFailure(
              new IllegalStateException("read failed", new SQLTimeoutException("timeout")));

      assertEquals(500, answer.status());
      assertEquals("2", answer.headers().get("Retry-After"));
      assertEquals("no-store", answer.headers().get("Cache-Control"));
      String body = new String(answer.body(), StandardCharsets.UTF_8);
      assertTrue(body.startsWith("{\"error\":\"server_error\""), body);
      assertTrue(body.contains("busy or slow"), body);
      assertFalse(body.contains("retry_after"), body);
      assertTrue(incidents.messages().isEmpty(), incidents.messages().toString());
    }
  }

  @Test
  void whenAnythingElseFailedThenAnIncidentWithoutRetryAfter() {
    try (LogCapture incidents = LogCapture.of(Incident.class.getName())) {
      TokenAnswer answer =
          TokenAnswer.ofFailure(
              new IllegalStateException("bad row", new SQLException("duplicate", "23505")));

      assertEquals(500, answer.status());
      assertNull(answer.headers().get("Retry-After"));
      assertTrue(
          new String(answer.body(), StandardCharsets.UTF_8).contains("incident"),
          "the incident id is named");
      assertEquals(1, incidents.messages().size());
    }
  }
}
