package dev.platform.identity.verify;

/**
 * A request whose bearer token is refused. There are exactly two kinds, and the kind decides the
 * HTTP status of SPEC 7.2: {@link UnauthenticatedException} (401, get a new token) and {@link
 * AccessDeniedException} (403, the token is genuine but not enough). The message is short and safe
 * to send to the client as the {@code message} of {@code {success: false, message}}; it never says
 * which check of a token failed beyond "expired", "revoked" or "invalid". The cause, when there is
 * one, is for the server's log only.
 *
 * <p>No stack trace is taken: these are answers to clients, not failures of the service.
 */
public abstract sealed class BearerTokenException extends RuntimeException
    permits UnauthenticatedException, AccessDeniedException {

  BearerTokenException(String message, Throwable cause) {
    super(message, cause, false, false);
  }

  /** The HTTP status to answer: 401 or 403. */
  public abstract int status();

  /**
   * The value of the {@code WWW-Authenticate} header to answer with (RFC 6750 §3), such as {@code
   * Bearer error="invalid_token"}.
   */
  public abstract String challenge();
}
