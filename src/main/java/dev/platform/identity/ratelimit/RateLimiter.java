package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditEvents;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import java.time.Clock;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * DESIGN decision 7. Before a token request: the caller's address and (client, address) failure
 * budgets must not be spent, and one token is taken from the client's success budget (60 a minute
 * by SPEC 8, {@code identity/tokenRateLimit}). After it: a request that did not end in a token
 * gives the success token back, and a failed authentication (or a request that names no client)
 * spends failure budget. A stranger who knows a client_id thus spends only budgets of its own
 * address, never the client's.
 */
public final class RateLimiter {
  /** SPEC 8: 60 successful token requests per minute per client_id. */
  public static final int SPEC_PER_MINUTE = 60;

  private static final Logger LOG = Logger.getLogger(RateLimiter.class.getName());

  private final BucketStore store;
  private final Budget successes;
  private final ExhaustedBudgets exhausted;

  RateLimiter(BucketStore store, int successesPerMinute) {
    this(store, successesPerMinute, ExhaustedBudgets.NONE);
  }

  RateLimiter(BucketStore store, int successesPerMinute, ExhaustedBudgets exhausted) {
    this.store = store;
    this.successes = Budget.successes(successesPerMinute);
    this.exhausted = exhausted;
  }

  /** Buckets in this node's memory (the single-node default); no audit-trail events. */
  public static RateLimiter inMemory(Clock clock, int successesPerMinute) {
    return inMemory(clock, successesPerMinute, null);
  }

  /**
   * Buckets in this node's memory, a failure budget that runs out stored in {@code events} (issue
   * 20 §3).
   */
  public static RateLimiter inMemory(Clock clock, int successesPerMinute, AuditEvents events) {
    return new RateLimiter(
        new MemoryBuckets(new ClockTime(clock), MemoryBuckets.DEFAULT_MAX_ENTRIES),
        successesPerMinute,
        new ExhaustedBudgets(events, clock));
  }

  /** Buckets in the PostgreSQL database every node shares; no audit-trail events. */
  public static RateLimiter inDatabase(DataSource dataSource, Clock clock, int successesPerMinute) {
    return inDatabase(dataSource, clock, successesPerMinute, null);
  }

  /** The same, a failure budget that runs out stored in {@code events} (issue 20 §3). */
  public static RateLimiter inDatabase(
      DataSource dataSource, Clock clock, int successesPerMinute, AuditEvents events) {
    return new RateLimiter(
        new DatabaseBuckets(dataSource, new ClockTime(clock)),
        successesPerMinute,
        new ExhaustedBudgets(events, clock));
  }

  /**
   * Deletes refilled buckets from the database store; nothing to do in memory. Runs on a schedule,
   * which an exception would end for good: a failure is logged and the next run tries again.
   */
  public void removeExpired() {
    if (store instanceof DatabaseBuckets database) {
      try {
        database.removeExpired();
      } catch (RuntimeException e) {
        LOG.warning("Expired rate-limit buckets could not be deleted; next try in a minute: " + e);
      }
    }
  }

  /**
   * Decides before the request runs.
   *
   * @param clientId the account the request names, as {@link RateLimitFilter#clientKey} gives it,
   *     or null when it names none
   * @param address the caller's address
   */
  Admission admit(String clientId, String address) {
    long wait =
        waitFor(store.bucket(Budget.ADDRESS_FAILURES.key(address), Budget.ADDRESS_FAILURES));
    if (wait > 0) {
      return Admission.refused(Budget.ADDRESS_FAILURES, wait, clientId, address);
    }
    if (clientId != null) {
      wait = waitFor(store.bucket(pairKey(clientId, address), Budget.PAIR_FAILURES));
    }
    if (wait > 0) {
      return Admission.refused(Budget.PAIR_FAILURES, wait, clientId, address);
    }
    if (clientId == null) {
      return Admission.admitted(null, address, null);
    }
    Bucket success = store.bucket(successes.key(clientId), successes);
    ConsumptionProbe probe = success.tryConsumeAndReturnRemaining(1);
    return probe.isConsumed()
        ? Admission.admitted(clientId, address, success)
        : Admission.refused(successes, probe.getNanosToWaitForRefill(), clientId, address);
  }

  /** Settles an admitted request once its response status is known. */
  void settle(Admission admission, int status) {
    if (admission.success() != null && status != 200) {
      admission.success().addTokens(1);
    }
    boolean failedAuthentication = status == 401;
    boolean namedNoClient = admission.clientId() == null && status >= 400 && status < 500;
    if (failedAuthentication || namedNoClient) {
      spend(Budget.ADDRESS_FAILURES.key(admission.address()), Budget.ADDRESS_FAILURES, admission);
      if (admission.clientId() != null) {
        spend(pairKey(admission.clientId(), admission.address()), Budget.PAIR_FAILURES, admission);
      }
    }
  }

  /** Spends one failure of bucket {@code key}; the one that empties it is an audit-trail event. */
  private void spend(String key, Budget budget, Admission admission) {
    ConsumptionProbe probe = store.bucket(key, budget).tryConsumeAndReturnRemaining(1);
    if (!probe.isConsumed() || probe.getRemainingTokens() <= 0) {
      exhausted.exhausted(key, budget, admission.clientId(), admission.address());
    }
  }

  private static long waitFor(Bucket bucket) {
    EstimationProbe probe = bucket.estimateAbilityToConsume(1);
    return probe.canBeConsumed() ? 0 : Math.max(1, probe.getNanosToWaitForRefill());
  }

  private static String pairKey(String clientId, String address) {
    return Budget.PAIR_FAILURES.key(clientId + "@" + address);
  }
}
