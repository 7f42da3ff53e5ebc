package dev.platform.identity.token;

import dev.platform.identity.jose.KeySetCache;
import dev.platform.identity.jose.KeySetFetch;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * The key sets of clients' {@code jwks_uri}s, cached per URI, fetched only in the background: a
 * caller gets the cached set or an exception at once, never waits for a fetch or a DNS look-up. A
 * set is fresh for the cache time (default 5 min); a caller that meets a stale set, no set, or
 * (asking with {@code forceRefresh}) a set without the key it needed, only schedules a fetch on the
 * executor, at most once per refetch interval (default 60 s) per URI, so forged key ids cannot turn
 * token requests into a flood of fetches. One fetch per URI is under way at a time. A failed fetch
 * keeps the last good set serving until it is older than the maximum age (default 1 h): then the
 * URI fails closed until a fetch succeeds. {@link #refreshDue} refreshes the URIs in use from a
 * scheduler, so a set stays fresh between requests; one nobody asked for in a day is dropped. At
 * most {@code maxUris} URIs are held (default 10 000), the least recently stored leaving first.
 *
 * <p>Each URI's set, its times and its single fetch are a {@link KeySetCache}, the core the
 * verifier's {@code RemotePublicKeys} uses too; this class adds what only clients' sets need: many
 * URIs, fetches on the executor that no caller waits for, the scheduler's refresh, and the notice
 * of a set past its maximum age. A set's age counts from when its fetch began on the executor.
 *
 * @param <T> what a key set is parsed into
 */
final class RemoteClientKeys<T> {
  private static final Logger LOG = Logger.getLogger(RemoteClientKeys.class.getName());

  /** A URI nobody asked for in this long is no longer refreshed. */
  static final Duration IDLE_LIMIT = Duration.ofDays(1);

  private final ClientKeySetFetch<T> fetch;
  private final Clock clock;
  private final Executor executor;
  private final Times times;
  private final KeySetCache.Policy policy;
  private final ExpiryListener onExpiry;
  private final Map<String, KeySetCache<T>> entries;
  private final Map<String, KeySetCache<T>> fetching = new ConcurrentHashMap<>();
  private final Map<String, Instant> asked = new ConcurrentHashMap<>();
  private final Set<String> saidExpired = ConcurrentHashMap.newKeySet();

  /**
   * The cache's times and bound.
   *
   * @param cacheTime how long a fetched set is served before a fetch is due
   * @param refetchInterval the least time between two fetches of one URI that a caller asks for
   * @param maxAge how long after its last successful fetch a set may still be served
   * @param maxUris how many URIs are held
   */
  public record Times(Duration cacheTime, Duration refetchInterval, Duration maxAge, int maxUris) {
    /** 5 min, 60 s, 1 h, 10 000. */
    public static final Times DEFAULT =
        new Times(Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofHours(1), 10_000);

    public Times {
      if (cacheTime.isNegative()
          || refetchInterval.isNegative()
          || maxAge.isNegative()
          || maxAge.isZero()
          || maxUris < 1) {
        throw new IllegalArgumentException("cache times and the bound must be positive");
      }
    }

    /** These times with another maximum age. */
    public Times withMaxAge(Duration maxAge) {
      return new Times(cacheTime, refetchInterval, maxAge, maxUris);
    }
  }

  /** Told once when a URI's last good set passes the maximum age, until a fetch succeeds again. */
  @FunctionalInterface
  public interface ExpiryListener {
    void expired(String jwksUri, Instant fetchedAt);
  }

  /**
   * A cache that fetches on {@code executor}, which should be small and bounded: a fetch may hold
   * one of its threads for the fetch's deadline. A fetch it rejects is tried again a refetch
   * interval later.
   */
  RemoteClientKeys(
      ClientKeySetFetch<T> fetch,
      Clock clock,
      Executor executor,
      Times times,
      ExpiryListener onExpiry) {
    this.fetch = fetch;
    this.clock = clock;
    this.executor = executor;
    this.times = times;
    this.onExpiry = onExpiry;
    this.entries = storeOrder(times.maxUris());
    // A client's Cache-Control is not heeded (the cache time is ours); any fetch, the first
    // included, delays the next an unknown kid asks for; and a URI that never answered is not tried
    // again before the refetch interval: the fetch threads are few and shared by every client.
    this.policy =
        new KeySetCache.Policy(
            times.refetchInterval(),
            times.cacheTime(),
            times.cacheTime(),
            times.maxAge(),
            true,
            true);
  }

  /** Kept in the order of their last store, the eldest dropped past the bound. */
  private static <T> Map<String, KeySetCache<T>> storeOrder(int maxUris) {
    return new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, KeySetCache<T>> eldest) {
        return size() > maxUris;
      }
    };
  }

  /**
   * The cached key set of {@code uri}, at once; a fetch is scheduled when one is due.
   *
   * @param forceRefresh the caller did not find the key it needed in the set it was given
   * @throws ClientKeysUnavailableException when no set was had from {@code uri} yet, or the last
   *     one is older than the maximum age
   */
  T get(URI uri, boolean forceRefresh) {
    String key = uri.toString();
    Instant now = clock.instant();
    asked.put(key, now);
    KeySetCache<T> cache = cacheOf(uri, key);
    cache.refresh(now, forceRefresh); // not waited for: an executor that runs in place has fetched
    KeySetCache.Held<T> held = cache.held();
    if (!held.present()) {
      throw new ClientKeysUnavailableException(key, held.failure());
    }
    if (held.tooOldAt(now)) {
      sayExpired(key, held);
      throw ClientKeysUnavailableException.expired(key, held.fetchedAt(), held.failure());
    }
    return held.value();
  }

  /** Schedules a fetch of {@code uri} unless its set is fresh: a new jwks_uri warms the cache. */
  void warm(URI uri) {
    String key = uri.toString();
    Instant now = clock.instant();
    asked.put(key, now);
    cacheOf(uri, key).refresh(now, false);
  }

  /**
   * Schedules the fetches that are due of the URIs asked for within a day, drops the others, and
   * says which sets have passed the maximum age: for a scheduler, every refetch interval or so.
   */
  void refreshDue() {
    Instant now = clock.instant();
    List<Map.Entry<String, KeySetCache<T>>> held;
    synchronized (entries) {
      held = new ArrayList<>(entries.entrySet());
    }
    asked.keySet().removeIf(key -> !containsKey(key) && !fetching.containsKey(key));
    for (Map.Entry<String, KeySetCache<T>> entry : held) {
      String key = entry.getKey();
      Instant last = asked.get(key);
      if (last == null || now.isAfter(last.plus(IDLE_LIMIT))) {
        drop(key);
      } else {
        KeySetCache.Held<T> before = entry.getValue().held();
        entry.getValue().refresh(now, false);
        if (before.tooOldAt(now)) {
          sayExpired(key, before);
        }
      }
    }
  }

  /**
   * The cache of {@code uri}: the one held, or the one whose fetch is under way though the bound
   * dropped it (so that one fetch per URI is under way at a time), or a new one, stored.
   */
  private KeySetCache<T> cacheOf(URI uri, String key) {
    synchronized (entries) {
      KeySetCache<T> cache = entries.get(key);
      if (cache == null) {
        cache = fetching.get(key);
        if (cache == null) {
          AtomicReference<KeySetCache<T>> self = new AtomicReference<>();
          cache =
              new KeySetCache<>(
                  uri, this::fetchNow, policy, clock, task -> schedule(key, self.get(), task));
          self.set(cache);
        }
        store(key, cache);
      }
      return cache;
    }
  }

  /**
   * Hands a fetch to the executor; the URI's cache is stored first, so that it is the youngest, and
   * known as under way until the fetch ends.
   */
  private void schedule(String key, KeySetCache<T> cache, Runnable task) {
    synchronized (entries) {
      store(key, cache);
      fetching.put(key, cache);
    }
    try {
      executor.execute(
          () -> {
            try {
              task.run();
              // The fetch has ended and its set is published: a success ends the notice.
              KeySetCache.Held<T> after = cache.held();
              if (after.present() && after.failure() == null) {
                saidExpired.remove(key);
              }
            } finally {
              fetching.remove(key);
            }
          });
    } catch (RejectedExecutionException e) {
      fetching.remove(key);
      throw e; // the cache keeps the attempt: the next is a refetch interval away
    }
  }

  /**
   * On the executor's thread: the check (a DNS look-up) and the fetch, waited for, so a fetch holds
   * its thread and the executor bounds how many run at once.
   */
  private CompletableFuture<KeySetFetch.Fetched<T>> fetchNow(URI uri) {
    String key = uri.toString();
    Throwable failure;
    try {
      T value =
          fetch.start(uri).get(fetch.deadline().plusSeconds(1).toNanos(), TimeUnit.NANOSECONDS);
      fetched(key);
      return CompletableFuture.completedFuture(new KeySetFetch.Fetched<>(value, Optional.empty()));
    } catch (ExecutionException e) {
      failure = e.getCause();
    } catch (TimeoutException e) {
      failure = new HttpTimeoutException("no key set within " + fetch.deadline());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = e;
    } catch (RuntimeException e) {
      failure = e;
    }
    // The reason may repeat what the URL served: printable ASCII only, so it stays one line.
    LOG.warning(
        "jwks_uri "
            + key
            + " gave no key set: "
            + String.valueOf(failure.getMessage()).replaceAll("[^\\x20-\\x7e]", "?"));
    fetched(key);
    return CompletableFuture.failedFuture(failure);
  }

  /** A fetch's end is a store too: its URI goes to the end of the store order. */
  private void fetched(String key) {
    synchronized (entries) {
      KeySetCache<T> cache = entries.get(key);
      if (cache == null) {
        cache = fetching.get(key);
      }
      if (cache != null) {
        store(key, cache);
      }
    }
  }

  private void sayExpired(String key, KeySetCache.Held<T> held) {
    if (saidExpired.add(key)) {
      LOG.warning(
          "jwks_uri "
              + key
              + " gave no key set since "
              + held.fetchedAt()
              + ", longer ago than "
              + times.maxAge()
              + ": its client's assertions are refused until a fetch succeeds");
      onExpiry.expired(key, held.fetchedAt());
    }
  }

  private boolean containsKey(String key) {
    synchronized (entries) {
      return entries.containsKey(key);
    }
  }

  private void drop(String key) {
    synchronized (entries) {
      entries.remove(key);
    }
    asked.remove(key);
    saidExpired.remove(key);
  }

  /** Removed first, so the entry goes to the end of the store order. Under the entries' lock. */
  private void store(String key, KeySetCache<T> entry) {
    entries.remove(key);
    entries.put(key, entry);
  }
}
