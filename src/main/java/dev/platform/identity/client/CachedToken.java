package dev.platform.identity.client;

import java.time.Duration;
import java.time.Instant;

/** A token in memory and when it expires; never shown by {@link #toString()}. */
record CachedToken(String value, Instant expiresAt) {
  /** SPEC 5.6: renew when less than 5 minutes remain. */
  static final Duration RENEWAL_BUFFER = Duration.ofMinutes(5);

  boolean isFreshAt(Instant now) {
    return now.isBefore(expiresAt.minus(RENEWAL_BUFFER));
  }

  boolean isValidAt(Instant now) {
    return now.isBefore(expiresAt);
  }

  @Override
  public String toString() {
    return "CachedToken[expiresAt=" + expiresAt + "]";
  }
}
