package dev.platform.identity.http;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * SPEC 7.1's error shape {@code {error, error_description}}: the token endpoint's, and every 500's
 * (DESIGN decision 6). Components in wire order; the snake_case mappers name them, and leave out
 * the two that most answers do not have.
 *
 * @param error the OAuth error code
 * @param errorDescription what went wrong, for the caller
 * @param retryAfter the seconds to wait, only on a 429 (RFC 6749 §5.2)
 * @param incidentId only on a 500 that names a logged incident, and then nothing else is said
 */
public record OAuthErrorBody(
    String error,
    String errorDescription,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long retryAfter,
    @JsonInclude(JsonInclude.Include.NON_NULL) String incidentId) {
  /** SPEC 7.1's error code of a 500. */
  public static final String SERVER_ERROR = "server_error";

  /** The body of {@code error}, said as {@code description}. */
  public static OAuthErrorBody of(String error, String description) {
    return new OAuthErrorBody(error, description, null, null);
  }

  /** The 500 that names {@code incident} and nothing more. */
  public static OAuthErrorBody of(Incident incident) {
    return new OAuthErrorBody(SERVER_ERROR, incident.description(), null, incident.id());
  }
}
