package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditEvents;
import dev.platform.identity.db.Vendor;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * DESIGN decision 7. Before a token request: the caller's address, (client, address) and client
 * failure budgets must not be spent, and one token is taken from the client's success budget (60 a
 * minute by SPEC 8, {@code identity/tokenRateLimit}). When it is refused: a failed authentication
 * (or a request that names no client) spends failure budget of the address, a refusal after the
 * client authenticated the client's own, each in one atomic step that turns the refusal into a 429
 * when the budget has nothing left. After it: a request that did not end in a token gives the
 * success token back. A stranger who knows a client_id thus spends only budgets of its own address,
 * never the client's.
 */
public final class RateLimiter {
  /** SPEC 8: 60 successful token requests per minute per client_id. */
  static final int SPEC_PER_MINUTE = 60;

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

  /**
   * Buckets in the database every node shares, PostgreSQL or MariaDB ({@code vendor}); no
   * audit-trail events.
   */
  public static RateLimiter inDatabase(
      DataSource dataSource, Vendor vendor, Clock clock, int successesPerMinute) {
    return inDatabase(dataSource, vendor, clock, successesPerMinute, null);
  }

  /** The same, a failure budget that runs out stored in {@code events}. */
  public static RateLimiter inDatabase(
      DataSource dataSource,
      Vendor vendor,
      Clock clock,
      int successesPerMinute,
      AuditEvents events) {
    return new RateLimiter(
        new DatabaseBuckets(dataSource, vendor, new ClockTime(clock)),
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
   * Decides before the request runs: refused while a failure budget the request could spend is
   * empty, else admitted holding one token of the client's success budget. Only a look at the
   * failure budgets, which spends nothing: {@link #failed} spends them, each in one atomic step.
   *
   * @param clientId the account the request names, as {@link RateLimitFilter#clientKey} gives it,
   *     or null when it names none
   * @param address the caller's address
   */
  Admission admit(String clientId, String address) {
    Admission checked = admitFailures(clientId, address);
    if (!checked.admitted() || clientId == null) {
      return checked;
    }
    Bucket success = store.bucket(successes.key(clientId), successes);
    ConsumptionProbe probe = success.tryConsumeAndReturnRemaining(1);
    return probe.isConsumed()
        ? Admission.admitted(clientId, address, success)
        : Admission.refused(successes, probe.getNanosToWaitForRefill(), clientId, address);
  }

  /**
   * {@link #admit} without the success budget: for revocation and introspection, which share the
   * token endpoint's failure budgets (brute force of a secret is the same attack there) but issue
   * no token, so do not count against SPEC 8's 60 tokens a minute.
   */
  Admission admitFailures(String clientId, String address) {
    long wait =
        waitFor(store.bucket(Budget.ADDRESS_FAILURES.key(address), Budget.ADDRESS_FAILURES));
    if (wait > 0) {
      return Admission.refused(Budget.ADDRESS_FAILURES, wait, clientId, address);
    }
    if (clientId == null) {
      return Admission.admitted(null, address, null);
    }
    wait = waitFor(store.bucket(pairKey(clientId, address), Budget.PAIR_FAILURES));
    if (wait > 0) {
      return Admission.refused(Budget.PAIR_FAILURES, wait, clientId, address);
    }
    wait = waitFor(store.bucket(Budget.CLIENT_FAILURES.key(clientId), Budget.CLIENT_FAILURES));
    if (wait > 0) {
      return Admission.refused(Budget.CLIENT_FAILURES, wait, clientId, address);
    }
    return Admission.admitted(clientId, address, null);
  }

  /**
   * An admitted request was refused with {@code status}; it spends the failure budgets that refusal
   * counts against, each with one {@code tryConsume} that checks and spends at once, so however
   * many requests run at the same time no more refusals than a budget holds are answered. A failed
   * authentication (401) spends the (client, address) and the address budget; a refusal after the
   * client authenticated, the client's own failure budget; any 4xx of a request that names no
   * client, the address budget.
   *
   * @param authenticated whether the request proved its client's credentials before it was refused
   * @return the refusal to answer instead, a 429 of the first budget that had nothing left; empty
   *     when each had room and the request is answered as it was refused
   */
  Optional<Admission> failed(Admission admission, int status, boolean authenticated) {
    if (status < 400 || status >= 500 || status == 429) {
      return Optional.empty();
    }
    String clientId = admission.clientId();
    List<Budget> spent = new ArrayList<>(2);
    if (authenticated && clientId != null) {
      spent.add(Budget.CLIENT_FAILURES);
    } else if (status == 401 || clientId == null) {
      if (clientId != null) {
        spent.add(Budget.PAIR_FAILURES);
      }
      spent.add(Budget.ADDRESS_FAILURES);
    }
    Optional<Admission> refused = Optional.empty();
    for (Budget budget : spent) {
      Optional<Admission> refusal = spend(key(budget, admission), budget, admission);
      refused = refused.or(() -> refusal);
    }
    return refused;
  }

  /** Settles an admitted request once its response status is known: gives back its success. */
  void settle(Admission admission, int status) {
    if (admission.success() != null && status != 200) {
      admission.success().addTokens(1);
    }
  }

  /**
   * Spends one failure of bucket {@code key} in one step; the one that empties it, or finds it
   * empty, is an audit-trail event.
   */
  private Optional<Admission> spend(String key, Budget budget, Admission admission) {
    ConsumptionProbe probe = store.bucket(key, budget).tryConsumeAndReturnRemaining(1);
    if (!probe.isConsumed() || probe.getRemainingTokens() <= 0) {
      exhausted.exhausted(key, budget, admission.clientId(), admission.address());
    }
    return probe.isConsumed()
        ? Optional.empty()
        : Optional.of(
            Admission.refused(
                budget,
                Math.max(1, probe.getNanosToWaitForRefill()),
                admission.clientId(),
                admission.address()));
  }

  private static String key(Budget budget, Admission admission) {
    return switch (budget.name()) {
      case "fail" -> pairKey(admission.clientId(), admission.address());
      case "cfail" -> Budget.CLIENT_FAILURES.key(admission.clientId());
      default -> Budget.ADDRESS_FAILURES.key(admission.address());
    };
  }

  private static long waitFor(Bucket bucket) {
    EstimationProbe probe = bucket.estimateAbilityToConsume(1);
    return probe.canBeConsumed() ? 0 : Math.max(1, probe.getNanosToWaitForRefill());
  }

  private static String pairKey(String clientId, String address) {
    return Budget.PAIR_FAILURES.key(clientId + "@" + address);
  }
}
