package dev.platform.identity.client;

/**
 * A token request that failed for good: a final status (SPEC 7.3: not 401, 429 or 5xx), or retries
 * exhausted. Carries the service's {@code error} and {@code error_description} when it sent them.
 */
public final class TokenClientException extends RuntimeException {
  private final int status;
  private final String error;
  private final String description;

  TokenClientException(int status, String error, String description, Throwable cause) {
    super(
        "token request failed"
            + (status > 0 ? " with " + status : "")
            + (error != null ? ": " + error : "")
            + (description != null ? " (" + description + ")" : ""),
        cause);
    this.status = status;
    this.error = error;
    this.description = description;
  }

  /** The HTTP status, or 0 when no response came (I/O failure). */
  public int status() {
    return status;
  }

  /** SPEC 7.1 {@code error}, such as {@code invalid_client}; null when none was sent. */
  public String error() {
    return error;
  }

  /** SPEC 7.1 {@code error_description}; null when none was sent. */
  public String description() {
    return description;
  }
}
