package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.key.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SlowBodiesTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final SlowBodies slowBodies = new SlowBodies(clock);

  @Test
  void whenTheFirstBodyIsCutThenOneLineSaysSo() {
    try (LogCapture log = LogCapture.of(SlowBodies.class.getName())) {
      slowBodies.cut();

      assertEquals(1, log.messages().size());
      assertTrue(log.messages().get(0).startsWith("1 request bodies cut"));
    }
  }

  @Test
  void whenManyBodiesAreCutWithinAMinuteThenOnlyOneLineIsWritten() {
    try (LogCapture log = LogCapture.of(SlowBodies.class.getName())) {
      for (int i = 0; i < 1000; i++) {
        slowBodies.cut();
        clock.advance(Duration.ofMillis(50));
      }

      assertEquals(1, log.messages().size());
    }
  }

  @Test
  void whenAMinuteHasPassedThenTheNextCutLogsTheCountSinceTheLastLine() {
    try (LogCapture log = LogCapture.of(SlowBodies.class.getName())) {
      slowBodies.cut();
      slowBodies.cut();
      slowBodies.cut();
      clock.advance(Duration.ofMinutes(1));
      slowBodies.cut();

      assertEquals(2, log.messages().size());
      assertTrue(log.messages().get(1).startsWith("3 request bodies cut"), log.messages().get(1));
    }
  }
}
