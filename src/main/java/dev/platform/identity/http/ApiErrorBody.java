package dev.platform.identity.http;

/**
 * SPEC 7.2's error shape {@code {success: false, message}}: the administration API's. Components in
 * wire order; the snake_case mappers name them.
 *
 * @param success always {@code false}
 * @param message what went wrong, safe to show the caller
 */
public record ApiErrorBody(boolean success, String message) {
  /** The body saying {@code message}. */
  public static ApiErrorBody of(String message) {
    return new ApiErrorBody(false, message);
  }
}
