package dev.platform.identity.jose;

/**
 * A JWS, or a part of one, that the JOSE rules refuse. Each user turns it into its own error
 * surface; {@link #reason()} says which rule, {@link #getMessage()} says how, for a log only.
 */
public final class JwsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Which rule the JWS broke. */
  public enum Reason {
    /** Not three non-empty base64url parts separated by two dots (RFC 7515 §7.1). */
    MALFORMED,
    /** A part is not canonical base64url: padding, spare bits, another alphabet. */
    NOT_BASE64URL,
    /** A part is not one JSON object in UTF-8, or names a member twice. */
    NOT_JSON,
    /** The header's {@code alg} is not one this use allows. */
    ALGORITHM,
    /** The header has a {@code crit} this use does not understand. */
    CRITICAL,
    /** The header has a member no JWS may have ({@code zip}, {@code enc}) or a wrong type. */
    HEADER,
    /** A claim that must be a NumericDate is not one (RFC 7519 §2). */
    NUMERIC_DATE
  }

  private final Reason reason;

  JwsException(Reason reason, String detail) {
    super(detail);
    this.reason = reason;
  }

  /** The rule broken. */
  public Reason reason() {
    return reason;
  }
}
