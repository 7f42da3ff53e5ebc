package dev.platform.identity.admin;

import dev.platform.identity.ratelimit.ClockTime;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Key operations (rotate, revoke) per caller client_id, in this node's memory (issue 26): each one
 * generates an RSA key and may grow the published list, and operators need a handful in an
 * incident, not hundreds. The map holds one bucket per account that passed {@link AdminAuth} with a
 * key scope, so it stays as small as that set of accounts.
 */
final class KeyOperationBudget {
  /** Operations per caller per hour, refilled smoothly (one every three minutes once spent). */
  static final int PER_HOUR = 20;

  private final Clock clock;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  KeyOperationBudget(Clock clock) {
    this.clock = clock;
  }

  /**
   * Takes one operation from {@code clientId}'s budget.
   *
   * @throws ApiError 429 with the seconds until the next one is allowed
   */
  void spend(String clientId) {
    ConsumptionProbe probe =
        buckets.computeIfAbsent(clientId, id -> newBucket()).tryConsumeAndReturnRemaining(1);
    if (!probe.isConsumed()) {
      long seconds = Math.max(1, Duration.ofNanos(probe.getNanosToWaitForRefill()).toSeconds() + 1);
      throw ApiError.tooManyRequests(
          "at most " + PER_HOUR + " key operations an hour per caller; try again later", seconds);
    }
  }

  private Bucket newBucket() {
    return Bucket.builder()
        .addLimit(
            Bandwidth.builder()
                .capacity(PER_HOUR)
                .refillGreedy(PER_HOUR, Duration.ofHours(1))
                .build())
        .withCustomTimePrecision(new ClockTime(clock))
        .build();
  }
}
