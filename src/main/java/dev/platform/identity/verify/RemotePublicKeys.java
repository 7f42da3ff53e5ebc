package dev.platform.identity.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The issuer's public keys, fetched from {@code GET {issuer}/api/public-keys} (SPEC 4.2) and cached
 * as one immutable snapshot: a {@link PublicKeyLocator} for services that verify tokens of this
 * identity service. The snapshot lives as long as the response's {@code max-age} allows, at most an
 * hour (SPEC 8). An unknown {@code kid} refetches the set, at most once per refetch interval, so
 * forged kids cannot flood the issuer; while the issuer is unreachable, or answers with a set that
 * has no usable key, the last good set keeps serving. An entry of the set that cannot be used is
 * skipped. Concurrent callers needing a fetch share one. Build with {@link #builder()}.
 */
public final class RemotePublicKeys implements PublicKeyLocator {
  private static final Pattern MAX_AGE = Pattern.compile("max-age=(\\d+)");
  private static final Duration MIN_CACHE_TIME = Duration.ofSeconds(10);

  private final URI keySetUri;
  private final HttpClient http;
  private final Clock clock;
  private final Duration refetchInterval;
  private final Duration readTimeout;
  private final int maxBytes;
  private final Duration maxCacheTime;
  private final AtomicReference<Snapshot> snapshot = new AtomicReference<>(Snapshot.EMPTY);
  private final Object fetching = new Object();

  /** The keys of one fetch, and until when they are fresh. */
  private record Snapshot(Map<String, PublicKey> keys, Instant freshUntil, Instant lastMissFetch) {
    static final Snapshot EMPTY = new Snapshot(Map.of(), Instant.MIN, Instant.MIN);
  }

  private RemotePublicKeys(Builder builder) {
    this.keySetUri = builder.keySetUri;
    this.clock = builder.clock;
    this.refetchInterval = builder.refetchInterval;
    this.readTimeout = builder.readTimeout;
    this.maxBytes = builder.maxBytes;
    this.maxCacheTime = builder.maxCacheTime;
    this.http =
        builder.http != null
            ? builder.http
            : HttpClient.newBuilder()
                .connectTimeout(builder.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
  }

  /** A builder; the issuer's base URL (or the key set's own URL) is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The key {@code kid}: from the cached set, refetched when the set is stale or (at most once per
   * refetch interval) when the kid is unknown.
   *
   * @throws UncheckedIOException when no key set was ever fetched and the issuer cannot be reached
   *     (a server-side failure, not a verdict on the token)
   */
  @Override
  public Optional<PublicKey> find(String kid) {
    Instant now = clock.instant();
    Snapshot held = snapshot.get();
    if (now.isAfter(held.freshUntil())) {
      held = refresh(held, now, false);
    }
    PublicKey key = held.keys().get(kid);
    if (key == null && !now.isBefore(held.lastMissFetch().plus(refetchInterval))) {
      key = refresh(held, now, true).keys().get(kid);
    }
    return Optional.ofNullable(key);
  }

  /** One fetch at a time; a caller that waited for another's fetch uses its result. */
  private Snapshot refresh(Snapshot seen, Instant now, boolean miss) {
    synchronized (fetching) {
      Snapshot current = snapshot.get();
      if (current != seen) {
        return current;
      }
      Instant lastMiss = miss ? now : current.lastMissFetch();
      Snapshot next;
      try {
        Fetched fetched = fetch();
        next = new Snapshot(fetched.keys(), now.plus(cacheTime(fetched.maxAge())), lastMiss);
      } catch (IOException | RuntimeException e) {
        if (current.keys().isEmpty()) {
          snapshot.set(new Snapshot(Map.of(), Instant.MIN, lastMiss));
          throw new UncheckedIOException(
              "the issuer's public keys cannot be fetched from " + keySetUri,
              e instanceof IOException io ? io : new IOException(e));
        }
        // Keep serving the last good keys; try again after a refetch interval.
        next = new Snapshot(current.keys(), now.plus(refetchInterval), lastMiss);
      }
      snapshot.set(next);
      return next;
    }
  }

  private Duration cacheTime(Optional<Duration> maxAge) {
    Duration time = maxAge.orElse(maxCacheTime);
    if (time.compareTo(maxCacheTime) > 0) {
      return maxCacheTime;
    }
    return time.compareTo(MIN_CACHE_TIME) < 0 ? MIN_CACHE_TIME : time;
  }

  private record Fetched(Map<String, PublicKey> keys, Optional<Duration> maxAge) {}

  private Fetched fetch() throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(keySetUri)
            .timeout(readTimeout)
            .header("Accept", "application/json")
            .GET()
            .build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while fetching " + keySetUri, e);
    }
    byte[] body;
    try (InputStream in = response.body()) {
      body = in.readNBytes(maxBytes + 1);
    }
    if (response.statusCode() != 200) {
      throw new IOException(keySetUri + " answered " + response.statusCode());
    }
    if (body.length > maxBytes) {
      throw new IOException(keySetUri + " sent more than " + maxBytes + " bytes");
    }
    Optional<Duration> maxAge =
        response
            .headers()
            .firstValue("Cache-Control")
            .map(MAX_AGE::matcher)
            .filter(Matcher::find)
            .map(m -> Duration.ofSeconds(Long.parseLong(m.group(1))));
    return new Fetched(JwkSet.usableKeys(body), maxAge);
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

    /** The issuer's base URL ({@code iss}); the key set is {@code {issuer}/api/public-keys}. */
    public Builder issuer(URI issuer) {
      String base = issuer.toString();
      this.keySetUri = URI.create((base.endsWith("/") ? base : base + "/") + "api/public-keys");
      return this;
    }

    /** The key set's own URL, instead of {@link #issuer}. */
    public Builder keySetUri(URI uri) {
      this.keySetUri = uri;
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

    /** Connect timeout of the default HTTP client (default 2 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /** Time allowed for the whole response (default 5 s). */
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
      if (refetchInterval.isNegative() || readTimeout.isNegative() || maxBytes < 1) {
        throw new IllegalStateException("timeouts and sizes must be positive");
      }
      return new RemotePublicKeys(this);
    }
  }
}
