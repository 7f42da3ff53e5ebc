package dev.platform.identity.web;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * Counts the request bodies cut at {@link BodyReader#DEADLINE}, and says so in at most one log line
 * a minute: a flood of slow clients must show in the log without flooding it. Cuts after a line are
 * counted into the next one, written with the first cut a minute or more later.
 */
final class SlowBodies {
  static final Duration INTERVAL = Duration.ofMinutes(1);
  private static final Logger LOG = Logger.getLogger(SlowBodies.class.getName());

  private final Clock clock;
  private Instant lastLine;
  private long unreported;

  SlowBodies(Clock clock) {
    this.clock = clock;
  }

  /** Counts one cut; logs the count when the last line is a minute old. */
  synchronized void cut() {
    unreported++;
    Instant now = clock.instant();
    if (lastLine == null || !now.isBefore(lastLine.plus(INTERVAL))) {
      LOG.warning(
          unreported
              + " request bodies cut as too slow (not complete within "
              + BodyReader.DEADLINE.toSeconds()
              + " s) since the last such line");
      lastLine = now;
      unreported = 0;
    }
  }
}
