package dev.platform.identity.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import java.time.Duration;
import java.util.List;

/**
 * One kind of budget: so many requests per period, refilled smoothly (Bucket4j's greedy refill), so
 * a full bucket allows a burst of {@code capacity} and then one per {@code period / capacity}.
 *
 * @param name the key prefix of its buckets
 * @param capacity requests per period
 * @param period the window
 */
record Budget(String name, long capacity, Duration period) {
  /** Successful token requests per minute per client_id (SPEC 8: 60). */
  static Budget successes(int perMinute) {
    return new Budget("ok", perMinute, Duration.ofMinutes(1));
  }

  /** Failed client authentications per (client_id, remote address). */
  static final Budget PAIR_FAILURES = new Budget("fail", 20, Duration.ofMinutes(1));

  /**
   * Refusals after the client authenticated (an ungranted scope), per client_id. Only the client
   * can spend it, since only a request that proved its credentials does (DESIGN decision 7).
   */
  static final Budget CLIENT_FAILURES = new Budget("cfail", 20, Duration.ofMinutes(1));

  /** Failed authentications, and requests naming no client, per remote address. */
  static final Budget ADDRESS_FAILURES = new Budget("addr", 300, Duration.ofMinutes(1));

  BucketConfiguration configuration() {
    return BucketConfiguration.builder()
        .addLimit(Bandwidth.builder().capacity(capacity).refillGreedy(capacity, period).build())
        .build();
  }

  /** Its {@code budget} label in /metrics, what it counts. */
  String label() {
    return switch (name) {
      case "ok" -> "client_successes";
      case "fail" -> "client_address_failures";
      case "cfail" -> "client_failures";
      default -> "address_failures";
    };
  }

  /** The labels of every budget, for counters registered up front. */
  static final List<String> LABELS =
      List.of("client_successes", "client_address_failures", "client_failures", "address_failures");

  String key(String subject) {
    return name + ":" + subject;
  }
}
