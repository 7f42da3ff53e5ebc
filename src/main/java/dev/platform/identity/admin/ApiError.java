package dev.platform.identity.admin;

/**
 * An error of the administration API, carrying its wire fields: SPEC 7.2's {@code {success:false,
 * message}} with its HTTP status. The message is safe to show the caller.
 */
public final class ApiError extends RuntimeException {
  private final int status;

  ApiError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  static ApiError badRequest(String message) {
    return new ApiError(400, message);
  }

  static ApiError notFound(String message) {
    return new ApiError(404, message);
  }

  static ApiError conflict(String message) {
    return new ApiError(409, message);
  }

  static ApiError forbidden(String message) {
    return new ApiError(403, message);
  }

  int status() {
    return status;
  }
}
