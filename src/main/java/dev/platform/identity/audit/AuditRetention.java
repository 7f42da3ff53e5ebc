package dev.platform.identity.audit;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.InstantConverter;
import dev.platform.identity.db.LockRow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes the audit events older than {@code identity/auditRetention}, once a day for the whole
 * fleet. Every node checks every hour; the one that locks the row of {@code audit_retention_lock}
 * and finds its last run a day old claims the run and deletes, in batches of {@link #BATCH} each in
 * its own transaction, so no delete holds many rows at once. A node that dies mid-way leaves the
 * rest to the next day's run.
 */
public final class AuditRetention {
  /** How often each node asks whether the day's run is due. */
  static final Duration CHECK_INTERVAL = Duration.ofHours(1);

  /** The fleet runs the deletion at most once in this time. */
  static final Duration PERIOD = Duration.ofDays(1);

  static final int BATCH = 1000;

  private static final Logger LOG = Logger.getLogger(AuditRetention.class.getName());
  private static final InstantConverter INSTANTS = new InstantConverter();
  private static final LockRow LOCK = new LockRow("audit_retention_lock");

  private final Database database;
  private final AuditEvents events;
  private final Duration retention;
  private final Clock clock;
  private final int batch;

  public AuditRetention(Database database, Duration retention, Clock clock) {
    this(database, retention, clock, BATCH);
  }

  AuditRetention(Database database, Duration retention, Clock clock, int batch) {
    this.database = database;
    this.events = new AuditEvents(database);
    this.retention = retention;
    this.clock = clock;
    this.batch = batch;
  }

  /**
   * Deletes the expired events if no node did so within the last day.
   *
   * @return how many this call deleted; 0 also when the run was not due or another node claimed it
   */
  int runIfDue() {
    Instant now = clock.instant();
    if (!claim(now)) {
      return 0;
    }
    Instant before = now.minus(retention);
    int deleted = 0;
    int last;
    do {
      last = events.deleteBefore(before, batch);
      deleted += last;
    } while (last == batch);
    events.forgetWindowsBefore(now.minus(PERIOD));
    if (deleted > 0) {
      LOG.info("Deleted " + deleted + " audit events older than " + before);
    }
    return deleted;
  }

  /**
   * Takes the lock row and moves its last run to {@code now} if that is a day old: a second node
   * waits for the lock, then finds the run taken.
   */
  private boolean claim(Instant now) {
    return database.write(
        em -> {
          LOCK.take(em);
          return em.createNativeQuery(
                      "update audit_retention_lock set last_run = ?"
                          + " where id = 1 and (last_run is null or last_run <= ?)")
                  .setParameter(1, INSTANTS.convertToDatabaseColumn(now))
                  .setParameter(2, INSTANTS.convertToDatabaseColumn(now.minus(PERIOD)))
                  .executeUpdate()
              == 1;
        });
  }

  /** Checks every {@link #CHECK_INTERVAL} on {@code scheduler}, first after a minute. */
  public ScheduledFuture<?> scheduleOn(ScheduledExecutorService scheduler) {
    return scheduler.scheduleWithFixedDelay(
        this::runOrWarn,
        Duration.ofMinutes(1).toMillis(),
        CHECK_INTERVAL.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void runOrWarn() {
    try {
      runIfDue();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Cannot delete expired audit events; trying again later", e);
    }
  }
}
