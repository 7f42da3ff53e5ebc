package dev.platform.identity.verify;

import java.util.List;

/**
 * The request did not prove who sent it (HTTP 401, SPEC 7.2): no {@code Authorization} header,
 * another scheme than {@code Bearer}, no or a malformed token, or a token that is expired or
 * invalid (bad signature, unknown or missing {@code kid}, another algorithm than RS256, wrong
 * issuer, unusable claims), or revoked ({@link RevocationFeed}), or bound to a client certificate
 * the request did not present (RFC 8705 §3), or not bound when the verifier requires it; or, with
 * DPoP (RFC 9449 §7), a token bound to a key sent as {@code Bearer}, an unbound one sent as {@code
 * DPoP}, or a proof that fails its checks ({@code invalid_dpop_proof}) or lacks the server's nonce
 * ({@code use_dpop_nonce}). For a refused token the client should get a new one (SPEC 7.3); for a
 * refused proof, make a new proof.
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
  static final String UNSUPPORTED_SCHEMES = "unsupported authorization scheme: use Bearer or DPoP";
  static final String DPOP_BOUND = "token bound to a DPoP key: send it as DPoP, with a proof";
  static final String DPOP_UNBOUND = "token not bound to a DPoP key: send it as Bearer";
  static final String DPOP_UNTAKEN =
      "this verification cannot see the request's DPoP proof: send the token as Bearer";
  static final String DPOP_KEY_MISMATCH =
      "the DPoP proof's key is not the one the token is bound to";

  /** RFC 6750 §3.1 and RFC 9449 §7.1's error codes. */
  static final String INVALID_TOKEN_ERROR = "invalid_token";

  static final String INVALID_DPOP_PROOF = "invalid_dpop_proof";
  static final String USE_DPOP_NONCE = "use_dpop_nonce";

  /**
   * The error code: {@code invalid_token}, a DPoP one, or null for a request without credentials,
   * whose challenge has none (RFC 6750 §3.1).
   */
  private final String error;

  /**
   * A rejection of a request that presented a bearer token.
   *
   * @param message short text safe for the client
   */
  public UnauthenticatedException(String message) {
    this(message, INVALID_TOKEN_ERROR, null);
  }

  private UnauthenticatedException(String message, String error, Throwable cause) {
    super(message, cause);
    this.error = error;
  }

  /** No bearer credentials at all: no header, or another scheme. */
  static UnauthenticatedException withoutToken(String message) {
    return new UnauthenticatedException(message, null, null);
  }

  /** A presented token failed; {@code cause} says why, for the server's log only. */
  static UnauthenticatedException of(String message, Throwable cause) {
    return new UnauthenticatedException(message, INVALID_TOKEN_ERROR, cause);
  }

  /** A DPoP proof refused (RFC 9449 §7.1): {@code use_dpop_nonce} or {@code invalid_dpop_proof}. */
  static UnauthenticatedException proof(String message, boolean nonce) {
    return new UnauthenticatedException(message, nonce ? USE_DPOP_NONCE : INVALID_DPOP_PROOF, null);
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
   * error="invalid_token"} (RFC 6750 §3.1). From a verification that takes DPoP, followed by {@code
   * DPoP algs="..."}; or, for a request that used the DPoP scheme, {@code DPoP error="...",
   * error_description="...", algs="..."} alone (RFC 9449 §7.1).
   */
  @Override
  public String challenge() {
    if (error == null) {
      return challenge(List.of(), List.of());
    }
    String code = "error=\"" + error + "\"";
    return challenge(
        List.of("error=\"" + INVALID_TOKEN_ERROR + "\""),
        List.of(code, "error_description=" + quoted(getMessage())));
  }

  /** The error code of the challenge, or null when it has none. */
  String error() {
    return error;
  }
}
