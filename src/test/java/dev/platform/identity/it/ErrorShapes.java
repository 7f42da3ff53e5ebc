package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * SPEC 7's error shapes asserted on a raw answer: the status, a JSON content type, exactly the
 * shape's members, and nothing of a container's HTML page or of a stack trace.
 */
final class ErrorShapes {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a container's own page or an exception's text would show. */
  private static final List<String> LEAKS =
      List.of(
          "<html",
          "<!doctype",
          "exception",
          "\tat ",
          "tomcat",
          "payara",
          "glassfish",
          "jersey",
          "wildfly",
          "undertow",
          "jboss");

  private ErrorShapes() {}

  /** SPEC 7.1, the token endpoint: {@code {error, error_description}}, never stored. */
  static JsonNode oauth(RawHttp.Answer answer, int status) {
    JsonNode body = json(answer, status, "error", "error_description");
    assertEquals("no-store", answer.header("Cache-Control"), answer.toString());
    return body;
  }

  /** SPEC 7.2, the administration API: {@code {success: false, message}}. */
  static JsonNode api(RawHttp.Answer answer, int status) {
    JsonNode body = json(answer, status, "success", "message");
    assertFalse(body.get("success").asBoolean(true), answer.toString());
    return body;
  }

  /** SPEC 7.3, the key endpoints, and any other path: {@code {error}}. */
  static JsonNode error(RawHttp.Answer answer, int status) {
    return json(answer, status, "error");
  }

  /** DESIGN decision 6: 500 {@code server_error} naming an incident id, and no detail. */
  static JsonNode serverError(RawHttp.Answer answer) {
    JsonNode body = json(answer, 500, "error", "error_description", "incident_id");
    assertEquals("server_error", body.get("error").asText(), answer.toString());
    assertTrue(
        body.get("error_description").asText().contains(body.get("incident_id").asText()),
        answer.toString());
    assertEquals("no-store", answer.header("Cache-Control"), answer.toString());
    return body;
  }

  private static JsonNode json(RawHttp.Answer answer, int status, String... members) {
    assertEquals(status, answer.status(), answer.toString());
    assertTrue(answer.header("Content-Type").startsWith("application/json"), answer.toString());
    String lower = answer.body().toLowerCase(Locale.ROOT);
    for (String leak : LEAKS) {
      assertFalse(lower.contains(leak), leak + " in " + answer);
    }
    JsonNode body;
    try {
      body = JSON.readTree(answer.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + answer, e);
    }
    Set<String> names = new TreeSet<>();
    body.fieldNames().forEachRemaining(names::add);
    assertEquals(new TreeSet<>(List.of(members)), names, answer.toString());
    for (String member : members) {
      assertFalse(body.get(member).isNull(), answer.toString());
    }
    return body;
  }
}
