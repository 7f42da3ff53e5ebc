package dev.platform.identity.verify;

/**
 * The request did not prove who sent it (HTTP 401, SPEC 7.2): no {@code Authorization} header,
 * another scheme than {@code Bearer}, no or a malformed token, or a token that is expired or
 * invalid (bad signature, unknown or missing {@code kid}, another algorithm than RS256, wrong
 * issuer, unusable claims), or revoked ({@link RevocationFeed}), or bound to a client certificate
 * the request did not present (RFC 8705 §3), or not bound when the verifier requires it. The client
 * should get a new token (SPEC 7.3).
 */
public final class UnauthenticatedException extends BearerTokenException {
  static final String MISSING_HEADER = "missing Authorization header";
  static final String UNSUPPORTED_SCHEME = "unsupported authorization scheme: use Bearer";
  static final String MISSING_TOKEN = "missing bearer token";
  static final String MALFORMED_TOKEN = "malformed bearer token";
  static final String EXPIRED_TOKEN = "token expired";
  static final String INVALID_TOKEN = "invalid token";
  static final String REVOKED_TOKEN = "token revoked";
  static final String CERTIFICATE_MISSING = "token bound to a client certificate not presented";
  static final String CERTIFICATE_MISMATCH = "token bound to another client certificate";
  static final String BINDING_REQUIRED = "token not bound to a client certificate";

  /** RFC 6750 §3.1: a request without bearer credentials gets a challenge without error code. */
  private final boolean tokenPresented;

  /**
   * A rejection of a request that presented a bearer token.
   *
   * @param message short text safe for the client
   */
  public UnauthenticatedException(String message) {
    this(message, true, null);
  }

  private UnauthenticatedException(String message, boolean tokenPresented, Throwable cause) {
    super(message, cause);
    this.tokenPresented = tokenPresented;
  }

  /** No bearer credentials at all: no header, or another scheme. */
  static UnauthenticatedException withoutToken(String message) {
    return new UnauthenticatedException(message, false, null);
  }

  /** A presented token failed; {@code cause} says why, for the server's log only. */
  static UnauthenticatedException of(String message, Throwable cause) {
    return new UnauthenticatedException(message, true, cause);
  }

  /** "invalid token", with {@code reason} kept as the cause, for the server's log only. */
  static UnauthenticatedException invalid(String reason) {
    return of(INVALID_TOKEN, new IllegalArgumentException(reason));
  }

  /** SPEC 7.2: the client must get a new token, which 401 says (RFC 6750 §3.1). */
  @Override
  public int status() {
    return 401;
  }

  /**
   * {@code Bearer} when the request carried no bearer token, else {@code Bearer
   * error="invalid_token"} (RFC 6750 §3.1).
   */
  @Override
  public String challenge() {
    return tokenPresented ? "Bearer error=\"invalid_token\"" : "Bearer";
  }
}
