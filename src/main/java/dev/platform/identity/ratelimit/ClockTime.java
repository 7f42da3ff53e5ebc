package dev.platform.identity.ratelimit;

import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Instant;

/** Bucket4j's time from a {@link Clock}, so tests move time instead of waiting for it. */
public record ClockTime(Clock clock) implements TimeMeter {
  @Override
  public long currentTimeNanos() {
    Instant now = clock.instant();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  @Override
  public boolean isWallClockBased() {
    return true;
  }
}
