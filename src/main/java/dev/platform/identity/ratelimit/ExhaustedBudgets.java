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
 * A failure budget that runs out is a brute-force signal, kept in the audit trail as one {@code
 * ratelimit.exhausted} event per bucket and window (the budget's period, counted from the epoch).
 * This node remembers the windows it stored, so a flood costs one write per bucket and window; the
 * database's key on (bucket, window) keeps the fleet to one. And it stores at most {@link
 * #MAX_PER_MINUTE} a minute: an attacker review showed that a caller with many addresses (an IPv6
 * /64, a botnet) could otherwise add a row for every 20 wrong secrets, each kept for the audit
 * retention. Past the cap the events are counted, and the next one stored says how many it stands
 * for ({@code suppressed_before}); the log counts every 429.
 */
final class ExhaustedBudgets {
  static final ExhaustedBudgets NONE = new ExhaustedBudgets(null, Clock.systemUTC());

  private static final Logger LOG = Logger.getLogger(ExhaustedBudgets.class.getName());
  private static final int MAX_REMEMBERED = 10_000;

  /** The most events this node stores in one minute of its clock. */
  static final int MAX_PER_MINUTE = 60;

  private final AuditEvents events;
  private final Clock clock;
  private final Map<String, Instant> stored =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  private long minute = -1;
  private int storedThisMinute;
  private long suppressed;

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
    long suppressedBefore = admit(key, window, now);
    if (suppressedBefore < 0) {
      return;
    }
    Map<String, String> detail = new LinkedHashMap<>();
    detail.put("window_start", window.toString());
    detail.put("capacity", Long.toString(budget.capacity()));
    detail.put("period", budget.period().toString());
    if (suppressedBefore > 0) {
      detail.put("suppressed_before", Long.toString(suppressedBefore));
    }
    try {
      events.recordOnce(
          key,
          window,
          AuditEvent.of(
              now, "ratelimit.exhausted", clientId, budget.name(), "exhausted", address, detail));
    } catch (RuntimeException e) {
      // Another node stored it at the same moment, or the database is away: the log has the 429s.
      LOG.log(Level.FINE, "ratelimit.exhausted for " + key + " not stored", e);
    }
  }

  /**
   * Whether to store the event of {@code key} in {@code window}: -1 when this node stored it
   * already or has stored its {@link #MAX_PER_MINUTE} this minute (then it is counted, and not
   * remembered, so a flood that lasts gets its row in a later minute); else how many events the cap
   * held back since the last one stored.
   */
  private synchronized long admit(String key, Instant window, Instant now) {
    if (window.equals(stored.get(key))) {
      return -1;
    }
    long thisMinute = now.getEpochSecond() / 60;
    if (thisMinute != minute) {
      minute = thisMinute;
      storedThisMinute = 0;
    }
    if (storedThisMinute >= MAX_PER_MINUTE) {
      suppressed++;
      return -1;
    }
    stored.put(key, window);
    storedThisMinute++;
    long before = suppressed;
    suppressed = 0;
    return before;
  }
}
