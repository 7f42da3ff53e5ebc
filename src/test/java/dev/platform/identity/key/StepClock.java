package dev.platform.identity.key;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock one millisecond later at every reading, wherever the thread: concurrent callers read
 * different instants in the order they asked, as on a real clock, without waiting for one.
 */
final class StepClock extends Clock {
  private final Instant start;
  private final AtomicLong readings = new AtomicLong();

  StepClock(Instant start) {
    this.start = start;
  }

  @Override
  public Instant instant() {
    return start.plus(Duration.ofMillis(readings.incrementAndGet()));
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("tests use UTC");
  }
}
