package dev.platform.identity.web;

import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * The texts of the client errors the service answers without a message of its own, in one table.
 * What Jersey raised is said for the caller ({@link #explanation}); what the container refused
 * before any route was known keeps the status's reason phrase ({@link #reason}), as it always has.
 */
final class StatusTexts {
  private static final Map<Integer, String> EXPLANATIONS =
      Map.of(
          404, "No resource at this path",
          405, "Method not allowed at this path",
          406, "No acceptable representation: this API answers application/json",
          415, "Unsupported Content-Type: send application/json");

  private StatusTexts() {}

  /** A short message for a status JAX-RS raised. */
  static String explanation(int status) {
    return EXPLANATIONS.getOrDefault(status, "The request was refused (HTTP " + status + ")");
  }

  /** The reason phrase of a status the container or Jersey refused before any route ran. */
  static String reason(int status) {
    Response.Status known = Response.Status.fromStatusCode(status);
    return known == null ? "HTTP status " + status : known.getReasonPhrase();
  }
}
