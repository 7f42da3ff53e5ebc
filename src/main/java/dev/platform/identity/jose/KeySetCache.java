package dev.platform.identity.jose;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * The last good key set of one URI and when to fetch it again: the one cache core behind the
 * verifier's issuer keys and the service's clients' {@code jwks_uri} sets, which differ only in
 * their {@link Policy} and in whether a caller waits for a refresh. It holds one immutable {@link
 * Held} snapshot, runs one fetch at a time (single flight without a lock: a caller joins the fetch
 * under way rather than queue behind it), and decides from its {@link Clock} alone when a set is
 * stale, when an unknown key id may fetch again, and when a set is too old to serve. Fetches begin
 * on the given executor and go through the caller's {@link Source}, normally {@link
 * KeySetFetch#start}. Thread-safe.
 *
 * @param <T> what a key set is parsed into
 */
public final class KeySetCache<T> {
  private static final Logger LOG = Logger.getLogger(KeySetCache.class.getName());

  private final URI uri;
  private final Source<T> source;
  private final Policy policy;
  private final Clock clock;
  private final Executor executor;
  private final AtomicReference<Held<T>> held = new AtomicReference<>(Held.none());
  private final AtomicReference<CompletableFuture<Held<T>>> refreshing = new AtomicReference<>();

  /** Fetches the set at a URI: the future ends, by the fetch's deadline, with it or a failure. */
  @FunctionalInterface
  public interface Source<T> {
    CompletableFuture<KeySetFetch.Fetched<T>> start(URI uri);
  }

  /**
   * How a set is cached: where its two users differ, and nothing else.
   *
   * @param refetchInterval the least time between two fetches an unknown key id causes, and the
   *     time to the next try after a failed fetch
   * @param minCacheTime the shortest a fetched set is fresh, whatever its {@code max-age} says
   * @param maxCacheTime the longest a fetched set is fresh, and how long when it gives no {@code
   *     max-age}; equal to {@code minCacheTime}, the response's {@code Cache-Control} is not heeded
   * @param maxStaleness how long after the fetch that brought it a set may still be served, when
   *     refreshes fail; at or past it the set is {@link Held#tooOldAt too old}
   * @param everyFetchDelaysMisses whether the refetch interval of an unknown key id counts from any
   *     fetch (a key id forged right after the first fetch fetches nothing) or only from the last
   *     fetch an unknown key id caused
   * @param backOffWithoutSet whether a failed fetch that leaves no set waits the refetch interval
   *     before the next try (fetches run on a shared pool), or the next caller tries again at once
   *     (callers wait for the fetch, one at a time)
   */
  public record Policy(
      Duration refetchInterval,
      Duration minCacheTime,
      Duration maxCacheTime,
      Duration maxStaleness,
      boolean everyFetchDelaysMisses,
      boolean backOffWithoutSet) {
    /**
     * Its users check their own bounds; this one both share.
     *
     * @throws IllegalArgumentException when the refetch interval is negative
     */
    public Policy {
      if (refetchInterval.isNegative()) {
        throw new IllegalArgumentException("the refetch interval must not be negative");
      }
      Objects.requireNonNull(minCacheTime);
      Objects.requireNonNull(maxCacheTime);
      Objects.requireNonNull(maxStaleness);
    }

    /**
     * The response's {@code max-age}, or the longest cache time, within the two bounds. The
     * shortest wins over a longest set below it: a longest of zero would otherwise have every call
     * fetch.
     */
    Duration cacheTime(Optional<Duration> maxAge) {
      Duration time = maxAge.orElse(maxCacheTime);
      if (time.compareTo(maxCacheTime) > 0) {
        time = maxCacheTime;
      }
      return time.compareTo(minCacheTime) < 0 ? minCacheTime : time;
    }
  }

  /**
   * What the cache holds now. Its times follow RFC 9111's rule: at or past an instant is past it.
   *
   * @param value the last good set, null when none was fetched yet
   * @param fetchedAt when the fetch that brought it began ({@link Instant#MIN} without a set)
   * @param usableUntil from when it is too old to serve ({@link Instant#MAX} without a set)
   * @param nextFetch from when a fetch is due whatever the key id asked for
   * @param lastMissFetch when the refetch interval of an unknown key id last began
   * @param failure why the last fetch failed, null after a success
   */
  public record Held<T>(
      T value,
      Instant fetchedAt,
      Instant usableUntil,
      Instant nextFetch,
      Instant lastMissFetch,
      Throwable failure) {
    static <T> Held<T> none() {
      return new Held<>(null, Instant.MIN, Instant.MAX, Instant.MIN, Instant.MIN, null);
    }

    /** Whether a set was ever fetched. */
    public boolean present() {
      return value != null;
    }

    /** Whether the set is stale: a fetch is due whatever key id a caller asks for. */
    public boolean staleAt(Instant now) {
      return !now.isBefore(nextFetch);
    }

    /** Whether a fetch is due, for a caller whose key id is unknown ({@code miss}) or not. */
    boolean dueAt(Instant now, boolean miss, Duration refetchInterval) {
      return staleAt(now) || (miss && !now.isBefore(later(lastMissFetch, refetchInterval)));
    }

    /** Past the maximum staleness: not to be served, whatever the refreshes say. */
    public boolean tooOldAt(Instant now) {
      return value != null && !now.isBefore(usableUntil);
    }
  }

  /**
   * The cache of the set at {@code uri}, fetched through {@code source} on {@code executor}: {@code
   * Runnable::run} where the fetch is asynchronous anyway, a small bounded pool where it blocks. A
   * fetch the executor refuses is tried again a refetch interval later.
   */
  public KeySetCache(URI uri, Source<T> source, Policy policy, Clock clock, Executor executor) {
    this.uri = Objects.requireNonNull(uri);
    this.source = Objects.requireNonNull(source);
    this.policy = Objects.requireNonNull(policy);
    this.clock = Objects.requireNonNull(clock);
    this.executor = Objects.requireNonNull(executor);
  }

  /** What is held now. */
  public Held<T> held() {
    return held.get();
  }

  /**
   * The refresh to wait for, if the caller wants to: the one under way, else one started now if a
   * fetch is due, else what is held. Never waits itself; the future ends with the snapshot the
   * refresh published, failed or not (its {@link Held#failure} says).
   *
   * @param now the caller's time, by which the fetch is due or not
   * @param miss the caller did not find the key id it needed in the set held
   */
  public CompletableFuture<Held<T>> refresh(Instant now, boolean miss) {
    CompletableFuture<Held<T>> running = refreshing.get();
    if (running != null) {
      return running;
    }
    Held<T> before = held.get();
    if (!before.dueAt(now, miss, policy.refetchInterval())) {
      return CompletableFuture.completedFuture(before);
    }
    CompletableFuture<Held<T>> mine = new CompletableFuture<>();
    running = refreshing.compareAndExchange(null, mine);
    if (running != null) {
      return running;
    }
    if (held.get() != before) {
      // Another refresh ended after this caller looked: its snapshot stands.
      publish(mine, held.get());
      return mine;
    }
    held.set(attempted(before, now, miss));
    try {
      executor.execute(() -> fetch(mine));
    } catch (RejectedExecutionException e) {
      LOG.fine("No fetch of " + uri + " now (the executor refused it)");
      publish(mine, held.get());
    }
    return mine;
  }

  /** The refresh under way, if any (tests wait for it to end). */
  public Optional<CompletableFuture<Held<T>>> underWay() {
    return Optional.ofNullable(refreshing.get());
  }

  /**
   * The attempt is stored before the fetch begins, so it stands even when the executor refuses it:
   * no fetch is due again before a refetch interval, and a fresh set keeps its time.
   */
  private Held<T> attempted(Held<T> before, Instant now, boolean miss) {
    Instant next =
        before.nextFetch().isAfter(now) ? before.nextFetch() : later(now, policy.refetchInterval());
    // Due by the unknown key id alone: the set is still fresh.
    boolean missOnly = miss && before.nextFetch().isAfter(now);
    Instant lastMiss = policy.everyFetchDelaysMisses() || missOnly ? now : before.lastMissFetch();
    return new Held<>(
        before.value(), before.fetchedAt(), before.usableUntil(), next, lastMiss, before.failure());
  }

  /** On the executor: the set's age counts from here, the fetch's own beginning. */
  private void fetch(CompletableFuture<Held<T>> mine) {
    Instant began = clock.instant();
    CompletableFuture<KeySetFetch.Fetched<T>> fetched;
    try {
      fetched = source.start(uri);
    } catch (RuntimeException e) {
      fetched = CompletableFuture.failedFuture(e);
    }
    fetched
        .handle((result, failure) -> next(began, result, failure))
        .whenComplete((next, failure) -> publish(mine, next != null ? next : held.get()));
  }

  private Held<T> next(Instant began, KeySetFetch.Fetched<T> fetched, Throwable failure) {
    Held<T> now = held.get();
    if (fetched != null) {
      return new Held<>(
          fetched.value(),
          began,
          later(began, policy.maxStaleness()),
          later(began, policy.cacheTime(fetched.maxAge())),
          now.lastMissFetch(),
          null);
    }
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    Instant retry =
        now.present() || policy.backOffWithoutSet()
            ? later(began, policy.refetchInterval())
            : Instant.MIN;
    return new Held<>(
        now.value(), now.fetchedAt(), now.usableUntil(), retry, now.lastMissFetch(), cause);
  }

  /** {@code time} plus {@code span}, or the end of time rather than an overflow. */
  static Instant later(Instant time, Duration span) {
    try {
      return time.plus(span);
    } catch (ArithmeticException | java.time.DateTimeException e) {
      return Instant.MAX;
    }
  }

  /** The snapshot is published before the refresh ends, and the next may start. */
  private void publish(CompletableFuture<Held<T>> mine, Held<T> next) {
    held.set(next);
    refreshing.set(null);
    mine.complete(next);
  }
}
