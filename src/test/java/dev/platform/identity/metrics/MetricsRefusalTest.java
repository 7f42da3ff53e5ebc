package dev.platform.identity.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.http.CapturedResponse;
import dev.platform.identity.verify.AccessDeniedException;
import dev.platform.identity.verify.BearerTokenException;
import dev.platform.identity.verify.UnauthenticatedException;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsRefusalTest {
  @Test
  void whenNoGoodTokenThen401InTheErrorShapeWithTheChallenge() throws IOException {
    assertEquals(
        "401 {Cache-Control=no-store, Content-Type=application/json, WWW-Authenticate=Bearer"
            + " error=\"invalid_token\"} 24 {\"error\":\"unauthorized\"}",
        refused(new UnauthenticatedException("no")));
  }

  @Test
  void whenTheScopeIsMissingThen403InTheErrorShape() throws IOException {
    String answer = refused(new AccessDeniedException("no", List.of(MetricsServlet.SCOPE)));

    assertEquals(
        "{\"error\":\"insufficient_scope\"}", answer.substring(answer.indexOf(" 30 ") + 4));
    assertEquals("403", answer.substring(0, 3));
  }

  private static String refused(BearerTokenException refusal) throws IOException {
    CapturedResponse response = new CapturedResponse();

    MetricsServlet.refuse(response.proxy(), refusal);

    return response.status()
        + " "
        + response.headers()
        + " "
        + response.length()
        + " "
        + response.body();
  }
}
