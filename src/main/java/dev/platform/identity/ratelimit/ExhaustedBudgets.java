package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.audit.AuditEvents;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Issue 20 §3: a failure budget that runs out is a brute-force signal, kept in the audit trail as
 * one {@code ratelimit.exhausted} event per bucket and window (the budget's period, counted from
 * the epoch). This node remembers the windows it stored, so a flood costs one write per bucket and
 * window; the database's key on (bucket, window) keeps the fleet to one.
 */
final class ExhaustedBudgets {
  static final ExhaustedBudgets NONE = new ExhaustedBudgets(null, Clock.systemUTC());

  private static final Logger LOG = Logger.getLogger(ExhaustedBudgets.class.getName());
  private static final int MAX_REMEMBERED = 10_000;

  private final AuditEvents events;
  private final Clock clock;
  private final Map<String, Instant> stored =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  /**
   * @param events where the events go; null: nowhere
   */
  ExhaustedBudgets(AuditEvents events, Clock clock) {
    this.events = events;
    this.clock = clock;
  }

  /** The bucket {@code key} of {@code budget} just ran out. */
  void exhausted(String key, Budget budget, String clientId, String address) {
    if (events == null) {
      return;
    }
    Instant now = clock.instant();
    long period = budget.period().toMillis();
    Instant window = Instant.ofEpochMilli(now.toEpochMilli() / period * period);
    if (!firstOnThisNode(key, window)) {
      return;
    }
    try {
      events.recordOnce(
          key,
          window,
          AuditEvent.of(
              now,
              "ratelimit.exhausted",
              clientId,
              budget.name(),
              "exhausted",
              address,
              Map.of(
                  "window_start",
                  window.toString(),
                  "capacity",
                  Long.toString(budget.capacity()),
                  "period",
                  budget.period().toString())));
    } catch (RuntimeException e) {
      // Another node stored it at the same moment, or the database is away: the log has the 429s.
      LOG.log(Level.FINE, "ratelimit.exhausted for " + key + " not stored", e);
    }
  }

  private synchronized boolean firstOnThisNode(String key, Instant window) {
    return !window.equals(stored.put(key, window));
  }
}
