package dev.platform.identity.admin;

import dev.platform.identity.ratelimit.ClockTime;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One kind of key operation per caller client_id, in this node's memory: each one generates an RSA
 * key, and operators need a handful in an incident, not hundreds. Only an operation that succeeds
 * is charged, and rotation and revocation have a budget each (refused rotations at the key cap once
 * spent the budget, and then a revocation of a compromised key got 429). The map holds one bucket
 * per account that passed {@link AdminAuth} with a key scope.
 */
final class KeyOperationBudget {
  /** Rotations per caller per hour, refilled smoothly (one every three minutes once spent). */
  static final int ROTATIONS_PER_HOUR = 20;

  /** Revocations per caller per hour (one a minute once spent): a compromise must not wait. */
  static final int REVOCATIONS_PER_HOUR = 60;

  private final String operations;
  private final int perHour;
  private final Clock clock;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  private KeyOperationBudget(String operations, int perHour, Clock clock) {
    this.operations = operations;
    this.perHour = perHour;
    this.clock = clock;
  }

  static KeyOperationBudget rotations(Clock clock) {
    return new KeyOperationBudget("rotations", ROTATIONS_PER_HOUR, clock);
  }

  static KeyOperationBudget revocations(Clock clock) {
    return new KeyOperationBudget("revocations", REVOCATIONS_PER_HOUR, clock);
  }

  /**
   * Runs {@code operation} as one of {@code clientId}'s. Its place is taken before it runs, so that
   * concurrent ones cannot pass the budget together, and given back if it fails: a refusal (404,
   * 409) or an error costs nothing.
   *
   * @throws ApiError 429 with the seconds until the next one is allowed; nothing ran
   */
  <T> T charge(String clientId, Supplier<T> operation) {
    Bucket bucket = buckets.computeIfAbsent(clientId, id -> newBucket());
    ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
    if (!probe.isConsumed()) {
      long nanos = probe.getNanosToWaitForRefill();
      long seconds = Math.max(1, nanos / 1_000_000_000L + (nanos % 1_000_000_000L == 0 ? 0 : 1));
      throw ApiError.tooManyRequests(
          "at most " + perHour + " key " + operations + " an hour per caller; try again later",
          seconds);
    }
    boolean succeeded = false;
    try {
      T result = operation.get();
      succeeded = true;
      return result;
    } finally {
      if (!succeeded) {
        bucket.addTokens(1);
      }
    }
  }

  private Bucket newBucket() {
    return Bucket.builder()
        .addLimit(
            Bandwidth.builder()
                .capacity(perHour)
                .refillGreedy(perHour, Duration.ofHours(1))
                .build())
        .withCustomTimePrecision(new ClockTime(clock))
        .build();
  }
}
