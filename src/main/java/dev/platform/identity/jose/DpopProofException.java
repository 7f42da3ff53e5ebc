package dev.platform.identity.jose;

/**
 * A DPoP proof (RFC 9449 §4) refused. Its user answers {@code invalid_dpop_proof} (RFC 9449 §5,
 * §7.1), or {@code use_dpop_nonce} for {@link Reason#NONCE} (§8); {@link #getMessage()} is a
 * description for the client that repeats nothing it sent beyond short, printable text.
 */
public final class DpopProofException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Which rule of RFC 9449 §4.3 the proof broke. */
  public enum Reason {
    /** Not exactly one {@code DPoP} header (§4.3 check 1). */
    HEADER_COUNT,
    /** Not a signed JWT by the JOSE rules, or too long (§4.3 check 2). */
    MALFORMED,
    /** {@code typ} is not {@code dpop+jwt} (§4.3 check 4). */
    TYPE,
    /** {@code alg} is not on the allow-list, or there is a {@code crit} (§4.3 check 5). */
    ALGORITHM,
    /** {@code jwk} missing, private, weak, malformed or of another type than {@code alg}. */
    KEY,
    /** The signature is not the {@code jwk}'s (§4.3 check 6). */
    SIGNATURE,
    /** A required claim is missing or of the wrong type (§4.3 check 3). */
    CLAIMS,
    /** {@code htm} is not the request's method (§4.3 check 8). */
    METHOD,
    /** {@code htu} is not the request's URI (§4.3 check 9). */
    URI,
    /** {@code iat} is older than the window allows (§4.3 check 11). */
    TOO_OLD,
    /** {@code iat} is later than the clock skew allows (§4.3 check 11). */
    FUTURE,
    /** {@code ath} is not the presented access token's hash (§4.3 check 12). */
    ACCESS_TOKEN_HASH,
    /** {@code nonce} is missing or not the one expected (§4.3 check 10, §8). */
    NONCE,
    /** The {@code jti} was seen within the window (§11.1). */
    REPLAYED,
    /** The replay cache is full of unexpired proofs: refused rather than forget one. */
    BUSY
  }

  private final Reason reason;

  DpopProofException(Reason reason, String description) {
    super(description);
    this.reason = reason;
  }

  /** The rule broken. */
  public Reason reason() {
    return reason;
  }
}
