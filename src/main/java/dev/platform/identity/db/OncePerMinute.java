package dev.platform.identity.db;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * A warning about a condition that may recur on every request, written at most once a minute with
 * the count of occurrences since the last line, so a stall cannot flood the log.
 */
final class OncePerMinute {
  static final Duration INTERVAL = Duration.ofMinutes(1);

  private final Logger log;
  private final Clock clock;
  private final AtomicReference<Instant> last = new AtomicReference<>();
  private final AtomicLong unlogged = new AtomicLong();

  OncePerMinute(Logger log, Clock clock) {
    this.log = log;
    this.clock = clock;
  }

  /**
   * Counts one occurrence and logs {@code message} if no line was written in the last minute.
   *
   * @return whether a line was written
   */
  boolean warn(String message) {
    unlogged.incrementAndGet();
    Instant now = clock.instant();
    Instant previous = last.get();
    if (previous != null && now.isBefore(previous.plus(INTERVAL))) {
      return false;
    }
    if (!last.compareAndSet(previous, now)) {
      return false;
    }
    long count = unlogged.getAndSet(0);
    log.warning(
        message + " (" + count + " time(s) since the last such line; at most one a minute)");
    return true;
  }
}
