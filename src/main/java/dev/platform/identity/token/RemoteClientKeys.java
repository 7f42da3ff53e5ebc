package dev.platform.identity.token;

import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * The key sets of clients' {@code jwks_uri}s, cached per URI (issue 22): a set is served for the
 * cache time (default 5 min) without a fetch. A caller that did not find the key it needed forces a
 * refetch, at most once per refetch interval (default 60 s) per URI, so forged key ids cannot turn
 * token requests into a flood of fetches. A failed fetch keeps the last good set serving and is
 * retried after a refetch interval, not at every call; a URI that never gave a set fails fast until
 * then. At most {@code maxUris} URIs are held (default 10 000), the least recently fetched leaving
 * first. One fetch per URI runs at a time; its other callers wait for it.
 *
 * @param <T> what a key set is parsed into
 */
public final class RemoteClientKeys<T> {
  private static final Logger LOG = Logger.getLogger(RemoteClientKeys.class.getName());

  private final ClientKeySetFetch<T> fetch;
  private final Clock clock;
  private final Duration cacheTime;
  private final Duration refetchInterval;
  private final Map<String, Cached<T>> entries;
  private final Map<String, CompletableFuture<Cached<T>>> fetching = new ConcurrentHashMap<>();

  /**
   * What one URI last gave: its last good value (null if none), when that was fetched, when a call
   * fetches again, when a missing key last forced a fetch, and the last failure (null after a
   * success).
   */
  private record Cached<T>(
      T value, Instant fetchedAt, Instant nextFetch, Instant lastForcedFetch, Throwable failure) {
    boolean needsFetchAt(Instant now, boolean forced, Duration refetchInterval) {
      return !now.isBefore(nextFetch)
          || (forced && !now.isBefore(lastForcedFetch.plus(refetchInterval)));
    }
  }

  /** A cache with the default times and bound. */
  public RemoteClientKeys(ClientKeySetFetch<T> fetch, Clock clock) {
    this(fetch, clock, Duration.ofMinutes(5), Duration.ofSeconds(60), 10_000);
  }

  /** A cache of at most {@code maxUris} URIs, each fresh for {@code cacheTime}. */
  public RemoteClientKeys(
      ClientKeySetFetch<T> fetch,
      Clock clock,
      Duration cacheTime,
      Duration refetchInterval,
      int maxUris) {
    if (cacheTime.isNegative() || refetchInterval.isNegative() || maxUris < 1) {
      throw new IllegalArgumentException("cache times and the bound must be positive");
    }
    this.fetch = fetch;
    this.clock = clock;
    this.cacheTime = cacheTime;
    this.refetchInterval = refetchInterval;
    this.entries = fetchOrder(maxUris);
  }

  /** Kept in the order of their last store, the eldest dropped past the bound. */
  private static <T> Map<String, Cached<T>> fetchOrder(int maxUris) {
    return new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Cached<T>> eldest) {
        return size() > maxUris;
      }
    };
  }

  /**
   * The key set at {@code uri}, cached or fetched now.
   *
   * @param forceRefresh the caller did not find the key it needed in the set it was given
   * @throws ClientKeysUnavailableException when no set was ever fetched from {@code uri} and this
   *     fetch failed, or the last one did less than a refetch interval ago
   */
  T get(URI uri, boolean forceRefresh) {
    String key = uri.toString();
    Instant now = clock.instant();
    Cached<T> held = held(key);
    if (held == null || held.needsFetchAt(now, forceRefresh, refetchInterval)) {
      held = await(uri, refresh(uri, key, held, now, forceRefresh), held);
    }
    if (held.value() == null) {
      throw new ClientKeysUnavailableException(key, held.failure());
    }
    return held.value();
  }

  /**
   * Starts a fetch of {@code uri}, or joins the one under way. The entry is stored before the
   * fetch's future completes, so a caller that comes later finds it.
   */
  private CompletableFuture<Cached<T>> refresh(
      URI uri, String key, Cached<T> held, Instant now, boolean forced) {
    CompletableFuture<Cached<T>> mine = new CompletableFuture<>();
    CompletableFuture<Cached<T>> running = fetching.putIfAbsent(key, mine);
    if (running != null) {
      return running;
    }
    Cached<T> current = held(key);
    CompletableFuture<Cached<T>> next =
        current != null && current != held
            // Another fetch ended after this caller looked: its entry stands.
            ? CompletableFuture.completedFuture(current)
            : fetch
                .start(uri)
                .handle((value, failure) -> next(key, held, now, forced, value, failure));
    next.whenComplete(
        (entry, failure) -> {
          if (entry != null) {
            store(key, entry);
          }
          fetching.remove(key, mine);
          if (failure != null) {
            mine.completeExceptionally(failure);
          } else {
            mine.complete(entry);
          }
        });
    return mine;
  }

  private Cached<T> next(
      String key, Cached<T> held, Instant now, boolean forced, T value, Throwable failure) {
    Instant lastForced = forced ? now : held == null ? Instant.MIN : held.lastForcedFetch();
    if (failure == null) {
      return new Cached<>(value, now, now.plus(cacheTime), lastForced, null);
    }
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    // The reason may repeat what the URL served: printable ASCII only, so it stays one line.
    LOG.warning(
        "jwks_uri "
            + key
            + " gave no key set: "
            + String.valueOf(cause.getMessage()).replaceAll("[^\\x20-\\x7e]", "?"));
    // Keep the last good value, if any; try again after a refetch interval, not at every call.
    return held == null
        ? new Cached<>(null, Instant.MIN, now.plus(refetchInterval), lastForced, cause)
        : new Cached<>(
            held.value(), held.fetchedAt(), now.plus(refetchInterval), lastForced, cause);
  }

  /** The fetch ends itself by its deadline; this bound is a backstop for a late joiner. */
  private Cached<T> await(URI uri, CompletableFuture<Cached<T>> refresh, Cached<T> held) {
    try {
      return refresh.get(fetch.deadline().toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new ClientKeysUnavailableException(uri.toString(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientKeysUnavailableException(uri.toString(), e);
    } catch (TimeoutException e) {
      if (held != null && held.value() != null) {
        return held;
      }
      throw new ClientKeysUnavailableException(
          uri.toString(), new HttpTimeoutException("no key set within " + fetch.deadline()));
    }
  }

  private Cached<T> held(String key) {
    synchronized (entries) {
      return entries.get(key);
    }
  }

  /** Removed first, so the entry goes to the end of the fetch order. */
  private void store(String key, Cached<T> entry) {
    synchronized (entries) {
      entries.remove(key);
      entries.put(key, entry);
    }
  }
}
