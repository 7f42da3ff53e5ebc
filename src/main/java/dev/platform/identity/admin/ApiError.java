package dev.platform.identity.admin;

import dev.platform.identity.verify.BearerVerifier;
import java.util.Collection;
import java.util.Optional;

/**
 * An error of the administration API, carrying its wire fields: SPEC 7.2's {@code {success:false,
 * message}} with its HTTP status, and for a 401 or 403 the RFC 6750 §3 challenge. The message is
 * safe to show the caller.
 */
public final class ApiError extends RuntimeException {
  private final int status;
  private final String challenge;
  private Long retryAfter;

  ApiError(int status, String message) {
    this(status, message, null);
  }

  private ApiError(int status, String message, String challenge) {
    super(message, null, false, false);
    this.status = status;
    this.challenge = challenge;
  }

  /** An error that JAX-RS itself raised for an administration path (404, 405, 415, ...). */
  public static ApiError of(int status, String message) {
    return new ApiError(status, message);
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

  /** 401 with the verifier's own challenge: none of {@code error} without a token (§3.1). */
  static ApiError unauthenticated(String message, String challenge) {
    return new ApiError(401, "The request is unauthenticated: " + message, challenge);
  }

  /**
   * 403: the token is good, its scopes are not enough (RFC 6750 §3.1 insufficient_scope), in the
   * scheme of the request: DPoP, with its algorithms, for a DPoP-bound token (RFC 9449 §7.1).
   */
  static ApiError insufficientScope(Collection<String> anyOf, boolean dpop) {
    String parameters = "error=\"insufficient_scope\", scope=\"" + String.join(" ", anyOf) + "\"";
    return new ApiError(
        403,
        "The caller has no permission for this resource: it needs one of " + anyOf,
        dpop
            ? "DPoP " + parameters + ", algs=\"" + BearerVerifier.DPOP_ALGORITHMS + "\""
            : "Bearer " + parameters);
  }

  /** 429 (SPEC 7.2's shape) with {@code Retry-After} in seconds. */
  static ApiError tooManyRequests(String message, long retryAfterSeconds) {
    ApiError error = new ApiError(429, message);
    error.retryAfter = retryAfterSeconds;
    return error;
  }

  static ApiError forbidden(String message) {
    return new ApiError(403, message, "Bearer error=\"insufficient_scope\"");
  }

  public int status() {
    return status;
  }

  /** The {@code Retry-After} seconds, for a 429. */
  Optional<Long> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** The {@code WWW-Authenticate} value, for a 401 or 403. */
  Optional<String> challenge() {
    return Optional.ofNullable(challenge);
  }
}
