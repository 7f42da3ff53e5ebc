package dev.platform.identity.ratelimit;

import io.github.bucket4j.Bucket;

/**
 * The limiter's answer before a token request runs: refused with a wait, or admitted holding what
 * to settle once the response status is known.
 *
 * @param retryAfterSeconds 0 when admitted, else the whole seconds to wait (at least 1)
 * @param clientId the key of the account the request names, or null
 * @param address the caller's address
 * @param success the client's success bucket, one token taken from it; null when none was taken
 * @param spent the budget that refused the request; null when admitted
 */
record Admission(
    long retryAfterSeconds, String clientId, String address, Bucket success, Budget spent) {
  boolean admitted() {
    return retryAfterSeconds == 0;
  }

  static Admission admitted(String clientId, String address, Bucket success) {
    return new Admission(0, clientId, address, success, null);
  }

  static Admission refused(Budget spent, long waitNanos, String clientId, String address) {
    long seconds = Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
    return new Admission(seconds, clientId, address, null, spent);
  }
}
