package dev.platform.identity.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The issuer's public keys, fetched from {@code GET {issuer}/api/public-keys} (SPEC 4.2) and cached
 * as one immutable snapshot: a {@link PublicKeyLocator} for services that verify tokens of this
 * identity service. The snapshot lives as long as the response's {@code max-age} allows, at most an
 * hour (SPEC 8). An unknown {@code kid} refetches the set, at most once per refetch interval, so
 * forged kids cannot flood the issuer. Build with {@link #builder()}.
 *
 * <p>One refresh runs at a time, in the background, and the last good set keeps serving while it
 * runs and after it fails: a caller whose {@code kid} is known never waits, a caller whose {@code
 * kid} is unknown waits for the refresh at most the read timeout, which is the deadline of the
 * whole fetch (connect, headers and body). An entry of the set that cannot be used is skipped.
 */
public final class RemotePublicKeys implements PublicKeyLocator {
  private static final Duration MIN_CACHE_TIME = Duration.ofSeconds(10);

  private final URI keySetUri;
  private final KeySetFetch fetch;
  private final Clock clock;
  private final Duration refetchInterval;
  private final Duration deadline;
  private final Duration maxCacheTime;
  private final AtomicReference<Snapshot> snapshot = new AtomicReference<>(Snapshot.EMPTY);
  private final AtomicReference<CompletableFuture<Snapshot>> refreshing = new AtomicReference<>();

  /** The keys of one fetch, until when they are fresh, and when an unknown kid last fetched. */
  private record Snapshot(Map<String, PublicKey> keys, Instant freshUntil, Instant lastMissFetch) {
    static final Snapshot EMPTY = new Snapshot(Map.of(), Instant.MIN, Instant.MIN);

    boolean isStaleAt(Instant now) {
      return now.isAfter(freshUntil);
    }

    boolean allowsMissFetchAt(Instant now, Duration refetchInterval) {
      return !now.isBefore(lastMissFetch.plus(refetchInterval));
    }
  }

  private RemotePublicKeys(Builder builder) {
    this.keySetUri = builder.keySetUri;
    this.clock = builder.clock;
    this.refetchInterval = builder.refetchInterval;
    this.deadline = builder.readTimeout;
    this.maxCacheTime = builder.maxCacheTime;
    HttpClient http =
        builder.http != null
            ? builder.http
            : HttpClient.newBuilder()
                .connectTimeout(builder.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    this.fetch = new KeySetFetch(keySetUri, http, deadline, builder.maxBytes);
  }

  /** A builder; the issuer's base URL (or the key set's own URL) is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The key {@code kid} from the last good set. A stale set is refreshed in the background while it
   * keeps answering; an unknown kid waits for a refresh (at most once per refetch interval unless
   * the set is stale) for at most the read timeout.
   *
   * @throws UncheckedIOException when no key set was ever fetched and the issuer cannot be reached
   *     (a server-side failure, not a verdict on the token)
   */
  @Override
  public Optional<PublicKey> find(String kid) {
    Instant now = clock.instant();
    Snapshot held = snapshot.get();
    boolean stale = held.isStaleAt(now);
    PublicKey key = held.keys().get(kid);
    if (key != null) {
      if (stale) {
        refresh(held, now, false);
      }
      return Optional.of(key);
    }
    CompletableFuture<Snapshot> running = refreshing.get();
    if (running == null && (stale || held.allowsMissFetchAt(now, refetchInterval))) {
      running = refresh(held, now, !stale);
    }
    return running == null ? Optional.empty() : Optional.ofNullable(await(running).keys().get(kid));
  }

  /**
   * Starts a refresh, or joins the one under way: single flight without a lock, so no caller waits
   * behind another's fetch. The next snapshot is published before the refresh ends.
   */
  private CompletableFuture<Snapshot> refresh(Snapshot held, Instant now, boolean miss) {
    CompletableFuture<Snapshot> mine = new CompletableFuture<>();
    CompletableFuture<Snapshot> running = refreshing.compareAndExchange(null, mine);
    if (running != null) {
      return running;
    }
    Snapshot current = snapshot.get();
    Instant lastMiss = miss ? now : held.lastMissFetch();
    CompletableFuture<Snapshot> next =
        current != held
            // Another refresh ended after this caller looked: its set stands.
            ? CompletableFuture.completedFuture(current)
            : fetch
                .start()
                .handle((fetched, failure) -> next(held, now, lastMiss, fetched, failure));
    next.whenComplete(
        (result, failure) -> {
          if (result != null) {
            snapshot.set(result);
          }
          refreshing.set(null);
          if (failure != null) {
            mine.completeExceptionally(failure);
          } else {
            mine.complete(result);
          }
        });
    return mine;
  }

  private Snapshot next(
      Snapshot held, Instant now, Instant lastMiss, KeySetFetch.Result fetched, Throwable failure) {
    if (fetched != null) {
      return new Snapshot(fetched.keys(), now.plus(cacheTime(fetched.maxAge())), lastMiss);
    }
    if (held.keys().isEmpty()) {
      throw unreachable(failure);
    }
    // Keep serving the last good keys; try again after a refetch interval.
    return new Snapshot(held.keys(), now.plus(refetchInterval), lastMiss);
  }

  /** The refresh ends itself at the deadline; a waiter's own bound is only a backstop. */
  private Snapshot await(CompletableFuture<Snapshot> refresh) {
    try {
      return refresh.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw unreachable(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable(e);
    } catch (TimeoutException e) {
      Snapshot held = snapshot.get();
      if (held.keys().isEmpty()) {
        throw unreachable(new HttpTimeoutException("no key set within " + deadline));
      }
      return held;
    }
  }

  private UncheckedIOException unreachable(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    if (cause instanceof UncheckedIOException done) {
      return done;
    }
    return new UncheckedIOException(
        "the issuer's public keys cannot be fetched from " + keySetUri,
        cause instanceof IOException io ? io : new IOException(cause));
  }

  private Duration cacheTime(Optional<Duration> maxAge) {
    Duration time = maxAge.orElse(maxCacheTime);
    if (time.compareTo(maxCacheTime) > 0) {
      return maxCacheTime;
    }
    return time.compareTo(MIN_CACHE_TIME) < 0 ? MIN_CACHE_TIME : time;
  }

  /** For tests: completes when the refresh under way, if any, has ended. */
  CompletableFuture<?> refreshEnded() {
    CompletableFuture<Snapshot> running = refreshing.get();
    return running == null
        ? CompletableFuture.completedFuture(null)
        : running.handle((result, failure) -> null);
  }

  /** Sets where the keys come from and how they are cached; {@link #build()} makes the source. */
  public static final class Builder {
    private URI keySetUri;
    private HttpClient http;
    private Clock clock = Clock.systemUTC();
    private Duration refetchInterval = Duration.ofSeconds(60);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration readTimeout = Duration.ofSeconds(5);
    private int maxBytes = 256 * 1024;
    private Duration maxCacheTime = Duration.ofHours(1);

    private Builder() {}

    /**
     * The issuer's base URL ({@code iss}); the key set is {@code {issuer}/api/public-keys}. SPEC
     * 5.6: it is https, or plain http to a loopback host written as such ({@code localhost},
     * 127.0.0.0/8 or {@code [::1]}, never a name that merely resolves there), and has no user info.
     *
     * @throws IllegalArgumentException naming the URL's scheme and host, when it breaks that rule
     */
    public Builder issuer(URI issuer) {
      String base = HttpsOnly.check("issuer", issuer).toString();
      this.keySetUri = URI.create((base.endsWith("/") ? base : base + "/") + "api/public-keys");
      return this;
    }

    /**
     * The key set's own URL, instead of {@link #issuer}; the same rule as there (https, or http to
     * a loopback host written as such; no user info).
     *
     * @throws IllegalArgumentException naming the URL's scheme and host, when it breaks that rule
     */
    public Builder keySetUri(URI uri) {
      this.keySetUri = HttpsOnly.check("keySetUri", uri);
      return this;
    }

    /** The HTTP client; by default one with the connect timeout and no redirects. */
    public Builder httpClient(HttpClient http) {
      this.http = http;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /** The least time between two fetches caused by unknown kids (default 60 s). */
    public Builder refetchInterval(Duration interval) {
      this.refetchInterval = interval;
      return this;
    }

    /** Connect timeout of the default HTTP client (default 2 s), within the read timeout. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /**
     * The deadline of one fetch, from connecting to the last byte of the body (default 5 s). A
     * fetch still running then is abandoned, its connection closed, and counts as failed; a caller
     * whose kid is unknown waits for a fetch at most this long. A server that sends its headers and
     * then stalls holds nobody longer.
     */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = timeout;
      return this;
    }

    /** The largest key set accepted (default 256 KiB); a larger one counts as a failed fetch. */
    public Builder maxBytes(int maxBytes) {
      this.maxBytes = maxBytes;
      return this;
    }

    /** The longest a set is cached whatever the issuer says (default and at most 1 hour). */
    public Builder maxCacheTime(Duration maxCacheTime) {
      this.maxCacheTime =
          maxCacheTime.compareTo(Duration.ofHours(1)) > 0 ? Duration.ofHours(1) : maxCacheTime;
      return this;
    }

    public RemotePublicKeys build() {
      if (keySetUri == null) {
        throw new IllegalStateException("the issuer (or the key set URL) is required");
      }
      if (refetchInterval.isNegative()
          || readTimeout.isNegative()
          || readTimeout.isZero()
          || maxBytes < 1) {
        throw new IllegalStateException("timeouts and sizes must be positive");
      }
      return new RemotePublicKeys(this);
    }
  }
}
