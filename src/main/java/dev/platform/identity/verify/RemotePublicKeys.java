package dev.platform.identity.verify;

import dev.platform.identity.jose.KeySetCache;
import dev.platform.identity.jose.KeySetFetch;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * The issuer's public keys, fetched from {@code GET {issuer}/api/public-keys} (SPEC 4.2) and cached
 * as one immutable snapshot: a {@link PublicKeyLocator} for services that verify tokens of this
 * identity service. The snapshot lives as long as the response's {@code max-age} allows, at most an
 * hour (SPEC 8). An unknown {@code kid} refetches the set, at most once per refetch interval, so
 * forged kids cannot flood the issuer. Build with {@link #builder()}.
 *
 * <p>One refresh runs at a time, in the background, and the last good set keeps serving while it
 * runs and after it fails ({@link KeySetCache}, the cache every key set here goes through): a
 * caller whose {@code kid} is known never waits, a caller whose {@code kid} is unknown waits for
 * the refresh at most the read timeout, which is the deadline of the whole fetch (connect, headers
 * and body: {@link KeySetFetch}, the bounded fetch every key set here goes through). An entry of
 * the set that cannot be used is skipped.
 *
 * <p>The last good set serves for at most the {@link Builder#maxStaleness maximum staleness}
 * (default {@link #DEFAULT_MAX_STALENESS}) after the fetch that brought it: a key revoked at the
 * issuer leaves a verifier's set at its next successful refresh, so a verifier cut off from the
 * issuer would otherwise trust it forever. Past that age, every {@code find} waits for a refresh
 * (started at most once per refetch interval) and, when it fails, throws {@link
 * StaleKeySetException}, which the filters answer with 503; the first such refusal of each minute
 * is logged at WARNING, and {@link #staleRefusals()} counts them all.
 */
public final class RemotePublicKeys implements PublicKeyLocator {
  /**
   * The default maximum staleness: 24 hours, the issuer's default key pre-publication ({@code
   * identity/keyPrePublication}) and token lifetime. A set fetched less than that ago still holds
   * every key the issuer's schedule can have signing now, since a new key is listed 24 hours before
   * it signs; an older one may lack it anyway. And an issuer outage shorter than a day, during
   * which clients keep their still-valid tokens, does not turn every API into 503s. Without a
   * successful refresh a revoked key is trusted at most this long after the last fetch (against one
   * refresh interval, at most 1 hour, while the issuer answers). Set it lower where revocation
   * matters more than riding out an issuer outage.
   */
  public static final Duration DEFAULT_MAX_STALENESS = Duration.ofHours(24);

  private static final Duration MIN_CACHE_TIME = Duration.ofSeconds(10);
  private static final Duration WARNING_INTERVAL = Duration.ofMinutes(1);
  private static final Logger LOG = Logger.getLogger(RemotePublicKeys.class.getName());

  private final URI keySetUri;
  private final KeySetFetch<Map<String, PublicKey>> fetch;
  private final KeySetCache<Map<String, PublicKey>> cache;
  private final Clock clock;
  private final Duration deadline;
  private final Duration maxStaleness;
  private final AtomicLong staleRefusals = new AtomicLong();
  private final AtomicReference<Instant> nextWarning = new AtomicReference<>(Instant.MIN);

  private RemotePublicKeys(Builder builder) {
    this.keySetUri = builder.keySetUri;
    this.clock = builder.clock;
    this.deadline = builder.readTimeout;
    this.maxStaleness = builder.maxStaleness;
    this.fetch =
        new KeySetFetch<>(
            JwkSet::usableKeys, builder.http, builder.connectTimeout, deadline, builder.maxBytes);
    // The first fetch does not delay an unknown kid, nor does a failed one without keys delay the
    // next caller: a verifier without keys is no verifier, and its callers wait one at a time.
    KeySetCache.Policy policy =
        new KeySetCache.Policy(
            builder.refetchInterval,
            MIN_CACHE_TIME,
            builder.maxCacheTime,
            maxStaleness,
            false,
            false);
    // The fetch is asynchronous: it begins on the caller's thread and never holds it.
    this.cache = new KeySetCache<>(keySetUri, this::fetch, policy, clock, Runnable::run);
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
   * @throws StaleKeySetException when the set held is older than the maximum staleness and no
   *     refresh succeeds now (a server-side failure too)
   */
  @Override
  public Optional<PublicKey> find(String kid) {
    Instant now = clock.instant();
    KeySetCache.Held<Map<String, PublicKey>> held = cache.held();
    if (held.tooOldAt(now)) {
      return findInNewerSet(now, kid);
    }
    PublicKey key = keys(held).get(kid);
    if (key != null) {
      if (held.staleAt(now)) {
        cache.refresh(now, false); // in the background
      }
      return Optional.of(key);
    }
    return Optional.ofNullable(keys(await(cache.refresh(now, true))).get(kid));
  }

  /**
   * The held set is too old to answer: only a refresh may, the one under way or one started now if
   * the refetch interval since the last try has passed. Waits for it at most the read timeout.
   */
  private Optional<PublicKey> findInNewerSet(Instant now, String kid) {
    KeySetCache.Held<Map<String, PublicKey>> after = await(cache.refresh(now, false));
    if (after.tooOldAt(now)) {
      throw refuseStale(after, now);
    }
    return Optional.ofNullable(keys(after).get(kid));
  }

  private static Map<String, PublicKey> keys(KeySetCache.Held<Map<String, PublicKey>> held) {
    return held.present() ? held.value() : Map.of();
  }

  /** Counts the refusal; warns once a minute at most, not once a request. */
  private StaleKeySetException refuseStale(
      KeySetCache.Held<Map<String, PublicKey>> held, Instant now) {
    long refused = staleRefusals.incrementAndGet();
    StaleKeySetException stale =
        new StaleKeySetException(
            keySetUri.toString(),
            held.fetchedAt(),
            Duration.between(held.fetchedAt(), now),
            maxStaleness);
    Instant due = nextWarning.get();
    if (!now.isBefore(due) && nextWarning.compareAndSet(due, now.plus(WARNING_INTERVAL))) {
      LOG.warning(
          stale.getCause().getMessage()
              + ": bearer tokens are not checked (503) until a fetch succeeds; "
              + refused
              + " refused so far");
    }
    return stale;
  }

  /**
   * How many {@code find} calls failed because the set was older than the maximum staleness, since
   * this source was built: for the integrator's metrics or health check.
   */
  public long staleRefusals() {
    return staleRefusals.get();
  }

  /** When the fetch of the set now held began; empty when none has succeeded yet. */
  public Optional<Instant> lastGoodFetch() {
    KeySetCache.Held<Map<String, PublicKey>> held = cache.held();
    return held.present() ? Optional.of(held.fetchedAt()) : Optional.empty();
  }

  /** One fetch of the set; the first that succeeds after the set was too old says so. */
  private CompletableFuture<KeySetFetch.Fetched<Map<String, PublicKey>>> fetch(URI uri) {
    boolean tooOld = cache.held().tooOldAt(clock.instant());
    return fetch
        .start(uri)
        .thenApply(
            fetched -> {
              if (tooOld) {
                LOG.info("the key set of " + uri + " was fetched again; bearer tokens are checked");
              }
              return fetched;
            });
  }

  /** The refresh ends itself at the deadline; a waiter's own bound is only a backstop. */
  private KeySetCache.Held<Map<String, PublicKey>> await(
      CompletableFuture<KeySetCache.Held<Map<String, PublicKey>>> refresh) {
    KeySetCache.Held<Map<String, PublicKey>> after;
    try {
      after = refresh.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw unreachable(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable(e);
    } catch (TimeoutException e) {
      after = cache.held();
      if (!after.present()) {
        throw unreachable(new HttpTimeoutException("no key set within " + deadline));
      }
    }
    if (!after.present() && after.failure() != null) {
      throw unreachable(after.failure());
    }
    return after;
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

  /** For tests: completes when the refresh under way, if any, has ended. */
  CompletableFuture<?> refreshEnded() {
    return cache
        .underWay()
        .<CompletableFuture<?>>map(running -> running.handle((result, failure) -> null))
        .orElseGet(() -> CompletableFuture.completedFuture(null));
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
    private Duration maxStaleness = DEFAULT_MAX_STALENESS;

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

    /**
     * The HTTP client; by default one with the connect timeout and no redirects. One that follows
     * redirects is refused by {@link #build()}: the key set is fetched from the issuer's URL only.
     */
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

    /**
     * The longest a set is cached whatever the issuer says (default and at most 1 hour); a set is
     * cached 10 s at least all the same, so that a time below that never has every call fetch.
     */
    public Builder maxCacheTime(Duration maxCacheTime) {
      this.maxCacheTime =
          maxCacheTime.compareTo(Duration.ofHours(1)) > 0 ? Duration.ofHours(1) : maxCacheTime;
      return this;
    }

    /**
     * The longest the last good set keeps answering after the fetch that brought it, when refreshes
     * fail (default {@link #DEFAULT_MAX_STALENESS}, 24 hours; the class comment says why). Past it,
     * {@code find} throws {@link StaleKeySetException} until a fetch succeeds. It must be longer
     * than the {@link #maxCacheTime longest cache time}, or a set would turn too old before its
     * first refresh.
     */
    public Builder maxStaleness(Duration maxStaleness) {
      this.maxStaleness = Objects.requireNonNull(maxStaleness);
      return this;
    }

    public RemotePublicKeys build() {
      if (keySetUri == null) {
        throw new IllegalStateException("the issuer (or the key set URL) is required");
      }
      // The client's redirects and the body's cap are checked by the fetch it builds.
      if (refetchInterval.isNegative() || readTimeout.isNegative() || readTimeout.isZero()) {
        throw new IllegalStateException("timeouts and sizes must be positive");
      }
      if (maxStaleness.compareTo(maxCacheTime) <= 0) {
        throw new IllegalStateException(
            "the maximum staleness ("
                + maxStaleness
                + ") must be longer than the longest cache time ("
                + maxCacheTime
                + ")");
      }
      return new RemotePublicKeys(this);
    }
  }
}
