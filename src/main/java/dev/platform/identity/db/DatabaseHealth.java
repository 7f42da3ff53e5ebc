package dev.platform.identity.db;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * The database's readiness, known in memory so that {@code /health/ready} never waits for it. A
 * probe on a thread of its own asks every {@link #INTERVAL} (a one-second deadline: the newest
 * migration is applied, and the tables a token needs can be read, i.e. are not locked); the guard
 * says when a statement last timed out or a connection failed. Ready: the last probe answered yes,
 * no longer than {@link #STALE} ago (a probe that hangs counts as a no), and nothing timed out or
 * failed in the last {@link #QUIET}.
 */
public final class DatabaseHealth {
  static final Duration INTERVAL = Duration.ofSeconds(1);
  static final Duration STALE = Duration.ofSeconds(5);
  static final Duration QUIET = Duration.ofSeconds(5);

  private static final Logger LOG = Logger.getLogger(DatabaseHealth.class.getName());

  private final BooleanSupplier probe;
  private final DatabaseGuard guard;
  private final Clock clock;
  private volatile Instant lastYes;
  private volatile boolean lastAnswer;
  private volatile boolean reported = true;

  DatabaseHealth(BooleanSupplier probe, DatabaseGuard guard, Clock clock) {
    this.probe = probe;
    this.guard = guard;
    this.clock = clock;
  }

  /** The health of {@code database}, probed once now. */
  public static DatabaseHealth of(Database database, DatabaseGuard guard, Clock clock) {
    DatabaseHealth health = new DatabaseHealth(database::isReady, guard, clock);
    health.probe();
    return health;
  }

  /** Probes every {@link #INTERVAL} on {@code scheduler} (a thread of its own, not shared). */
  public void scheduleOn(ScheduledExecutorService scheduler) {
    long millis = INTERVAL.toMillis();
    scheduler.scheduleWithFixedDelay(this::probe, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** One probe; never throws, so the schedule never ends. */
  void probe() {
    boolean yes;
    try {
      yes = probe.getAsBoolean();
    } catch (RuntimeException e) {
      yes = false;
    }
    if (yes) {
      lastYes = clock.instant();
    }
    lastAnswer = yes;
    report();
  }

  /** Whether the database is ready now; reads memory only. */
  public boolean ready() {
    Instant now = clock.instant();
    Instant yes = lastYes;
    return lastAnswer
        && yes != null
        && !yes.isBefore(now.minus(STALE))
        && guard.lastTrouble().isBefore(now.minus(QUIET));
  }

  /** A line when readiness changes, as the probe sees it (at most once a probe). */
  private void report() {
    boolean ready = ready();
    if (ready != reported) {
      reported = ready;
      if (ready) {
        LOG.info("The database answers again: ready");
      } else {
        LOG.warning(
            "The database is not ready (a probe failed, or statements time out or fail): readiness"
                + " answers 503");
      }
    }
  }

  /** {@code identity.database.ready}: 1 or 0. */
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("identity.database.ready", this, health -> health.ready() ? 1 : 0)
        .description("1 while the database is ready (probe and recent statements), else 0")
        .register(registry);
  }
}
