package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Issue 35: readiness from the probe and recent statements, read from memory. */
class DatabaseHealthTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T01:00:00Z"));
  final DatabaseGuard guard = new DatabaseGuard(2, Duration.ofSeconds(2), clock);
  final AtomicBoolean answers = new AtomicBoolean(true);
  final DatabaseHealth health = new DatabaseHealth(answers::get, guard, clock);

  @Test
  void whenTheProbeAnswersThenReady() {
    health.probe();
    assertTrue(health.ready());
  }

  @Test
  void whenTheProbeFailsThenNotReadyUntilItAnswersAgain() {
    health.probe();
    answers.set(false);
    health.probe();
    assertFalse(health.ready());
    answers.set(true);
    health.probe();
    assertTrue(health.ready());
  }

  @Test
  void whenTheProbeThrowsThenNotReady() {
    DatabaseHealth throwing =
        new DatabaseHealth(
            () -> {
              throw new IllegalStateException("pool closed");
            },
            guard,
            clock);
    throwing.probe();
    assertFalse(throwing.ready());
  }

  @Test
  void whenAStatementTimesOutThenNotReadyForAQuietPeriod() {
    health.probe();
    guard.failed(new SQLTimeoutException("statement timeout"));
    assertFalse(health.ready());
    clock.advance(DatabaseHealth.QUIET);
    health.probe();
    assertFalse(health.ready(), "still within the quiet period's end");
    clock.advance(Duration.ofMillis(1));
    assertTrue(health.ready());
  }

  @Test
  void whenTheProbeHangsThenReadinessGoesStale() {
    health.probe();
    clock.advance(DatabaseHealth.STALE.plusSeconds(1));
    assertFalse(health.ready());
  }

  @Test
  void whenNeverProbedThenNotReady() {
    assertFalse(health.ready());
  }
}
