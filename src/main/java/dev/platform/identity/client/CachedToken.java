package dev.platform.identity.client;

import java.time.Duration;
import java.time.Instant;

/**
 * A token in memory, when it expires, and its {@code token_type} ({@code Bearer}, or {@code DPoP}
 * for a token bound to the client's DPoP key); never shown by {@link #toString()}.
 */
record CachedToken(String value, Instant expiresAt, String type) {
  /** RFC 9449 §5: the {@code token_type} of a DPoP-bound token, and its Authorization scheme. */
  static final String DPOP = "DPoP";

  static final String BEARER = "Bearer";

  /** SPEC 5.6: renew when less than 5 minutes remain. */
  static final Duration RENEWAL_BUFFER = Duration.ofMinutes(5);

  boolean isFreshAt(Instant now) {
    return now.isBefore(expiresAt.minus(RENEWAL_BUFFER));
  }

  boolean isValidAt(Instant now) {
    return now.isBefore(expiresAt);
  }

  /** Whether the token is bound to the client's DPoP key, and is sent with a proof. */
  boolean isDpop() {
    return DPOP.equalsIgnoreCase(type);
  }

  /** The {@code Authorization} header value an API call carries it in (RFC 9449 §7.1). */
  String authorization() {
    return (isDpop() ? DPOP : BEARER) + " " + value;
  }

  @Override
  public String toString() {
    return "CachedToken[" + type + ", expiresAt=" + expiresAt + "]";
  }
}
