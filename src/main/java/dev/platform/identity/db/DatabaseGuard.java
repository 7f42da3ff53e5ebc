package dev.platform.identity.db;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The bulkhead and the deadline of database work. Every connection the service takes from the pool,
 * through EclipseLink ({@link Database#read}, {@link Database#write}) or JDBC (Bucket4j's
 * rate-limit store, the assertion and console-session stores, the pepper check), holds one of
 * {@code concurrency} permits until it is closed; when none is free the work waits at most {@link
 * #BUSY_WAIT} for one (a healthy database frees one in well under a millisecond) and is then
 * refused ({@link DatabaseBusyException}) instead of queueing, so request threads remain for what
 * is answered from memory (key list, discovery, health). Every statement gets the deadline ({@code
 * Statement.setQueryTimeout}). Timeouts, lost connections and refusals are counted for {@code
 * /metrics} and readiness, and logged at most once a minute.
 */
public final class DatabaseGuard {
  private static final Logger LOG = Logger.getLogger(DatabaseGuard.class.getName());

  /**
   * How long work waits for a permit before it is refused: long enough that work in bursts on a
   * healthy database is not refused (8 request threads introspecting, two reads each, on 6 permits
   * were refused a fifth of the time at once), short enough that a request thread given work the
   * stalled database cannot take is free again at once for the key list and health (issue 35).
   */
  static final Duration BUSY_WAIT = Duration.ofMillis(5);

  private final int concurrency;
  private final int timeoutSeconds;
  private final Clock clock;
  private final Semaphore permits;
  private final AtomicLong refusals = new AtomicLong();
  private final AtomicLong timeouts = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final OncePerMinute refusalLog;
  private final OncePerMinute timeoutLog;
  private final OncePerMinute failureLog;
  private volatile Instant lastTrouble = Instant.EPOCH;

  /**
   * @param concurrency the most connections in use at once
   * @param statementTimeout every statement's deadline, whole seconds; zero: none
   */
  public DatabaseGuard(int concurrency, Duration statementTimeout, Clock clock) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
    }
    this.concurrency = concurrency;
    this.timeoutSeconds = Math.toIntExact(statementTimeout.toSeconds());
    this.clock = clock;
    this.permits = new Semaphore(concurrency);
    this.refusalLog = new OncePerMinute(LOG, clock);
    this.timeoutLog = new OncePerMinute(LOG, clock);
    this.failureLog = new OncePerMinute(LOG, clock);
  }

  /** No limit and no deadline: tools and tests that open a database without the guard. */
  static DatabaseGuard unlimited() {
    return new DatabaseGuard(Integer.MAX_VALUE, Duration.ZERO, Clock.systemUTC());
  }

  /** {@code dataSource} with every connection under this guard. */
  DataSource guard(DataSource dataSource) {
    return GuardedDataSource.wrap(dataSource, this);
  }

  /** The deadline of each statement in whole seconds; 0: none. */
  int timeoutSeconds() {
    return timeoutSeconds;
  }

  /** Takes a permit, waiting at most {@link #BUSY_WAIT}, or counts a refusal and returns false. */
  boolean enter() {
    try {
      if (permits.tryAcquire() || permits.tryAcquire(BUSY_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // refused: the thread is being stopped
    }
    refusals.incrementAndGet();
    refusalLog.warn(
        "Database work refused: "
            + concurrency
            + " units are under way already (identity/databaseConcurrency); answering 503 with"
            + " Retry-After");
    return false;
  }

  void leave() {
    permits.release();
  }

  int concurrency() {
    return concurrency;
  }

  /** A statement or a connection failed: counted when it was a timeout or a lost connection. */
  void failed(SQLException failure) {
    if (DatabaseTrouble.isTimeout(failure)) {
      timeouts.incrementAndGet();
      lastTrouble = clock.instant();
      timeoutLog.warn(
          "Database statements time out (deadline "
              + timeoutSeconds
              + " s, identity/databaseStatementTimeout); answering 503 with Retry-After: "
              + failure.getMessage());
    } else if (DatabaseTrouble.isConnectionFailure(failure)) {
      failures.incrementAndGet();
      lastTrouble = clock.instant();
      failureLog.warn("Database connections fail: " + failure.getMessage());
    }
  }

  /** When a statement last timed out or a connection last failed; the epoch if never. */
  Instant lastTrouble() {
    return lastTrouble;
  }

  long refusals() {
    return refusals.get();
  }

  long timeouts() {
    return timeouts.get();
  }

  /** Connections in use now. */
  int inUse() {
    return concurrency - permits.availablePermits();
  }

  /** The counters of {@code /metrics} (the metrics registry). */
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder("identity.database.timeouts", timeouts, AtomicLong::get)
        .description("Database statements that passed their deadline or a lock timeout")
        .register(registry);
    FunctionCounter.builder("identity.database.refusals", refusals, AtomicLong::get)
        .description("Database work refused at once: identity/databaseConcurrency was reached")
        .register(registry);
    FunctionCounter.builder("identity.database.connection.failures", failures, AtomicLong::get)
        .description("Database connections that failed or were lost")
        .register(registry);
    Gauge.builder("identity.database.in.use", this, DatabaseGuard::inUse)
        .description("Database connections the service holds now (at most databaseConcurrency)")
        .register(registry);
  }
}
