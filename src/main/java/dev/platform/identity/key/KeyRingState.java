package dev.platform.identity.key;

import java.time.Duration;
import java.time.Instant;

/**
 * The key ring at one moment, for /metrics. Each duration is in seconds, NaN when the moment it is
 * measured from or to does not exist.
 *
 * @param now when it was read
 * @param listed how many keys the published list holds
 * @param currentSince when the current key started signing; null if none signs
 * @param plannedEnd when the schedule means the current key to stop signing; null if none signs
 * @param nextActivation when the next pending key starts signing; null if none is scheduled
 * @param refreshedAt the last successful refresh from the database; null before the first
 */
public record KeyRingState(
    Instant now,
    int listed,
    Instant currentSince,
    Instant plannedEnd,
    Instant nextActivation,
    Instant refreshedAt) {

  public double currentSigningSeconds() {
    return seconds(currentSince, now);
  }

  public double secondsUntilPlannedEnd() {
    return seconds(now, plannedEnd);
  }

  public double secondsUntilNextActivation() {
    return seconds(now, nextActivation);
  }

  public double secondsSinceRefresh() {
    return seconds(refreshedAt, now);
  }

  private static double seconds(Instant from, Instant to) {
    return from == null || to == null ? Double.NaN : Duration.between(from, to).toMillis() / 1e3;
  }
}
