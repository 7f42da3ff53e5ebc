package dev.platform.identity.verify;

import dev.platform.identity.jose.KeySetFetch;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The issuer's revocation feed, {@code GET {issuer}/oauth/revocations}, polled in the background
 * and held as one immutable snapshot, for a {@link BearerVerifier} to refuse revoked tokens ({@link
 * BearerVerifier.Builder#revocations}). A token is revoked when its {@code jti} is listed, or its
 * account is listed (by the SHA-256 of its client id) and the token was issued before the account's
 * {@code not_before}. Build with {@link #builder()}; close it when the verifier is done.
 *
 * <p>One daemon thread polls every {@link Builder#refreshInterval refresh interval} with {@code
 * If-None-Match}: a {@code 304} only renews the snapshot's age, a {@code 200} is read whole and
 * replaces it. Each poll goes through the bounded fetch every key set goes through ({@link
 * KeySetFetch}): no redirect, a deadline over connect, headers and body, and a size cap ({@link
 * #DEFAULT_MAX_BYTES}). A poll that fails (any status but 200 and 304, a body over the cap, a body
 * of another shape or another issuer, the deadline) keeps the snapshot held. A request thread never
 * waits for the network: it reads the snapshot, and a check is two hash lookups, none when the feed
 * is empty.
 *
 * <p>When the last successful poll is older than the {@link Builder#maxStaleness maximum
 * staleness}, or none succeeded yet, the feed is stale, and {@link Stale} says what a verification
 * does: {@link Stale#WARN} (the default) goes on with the snapshot held and logs a WARNING once a
 * minute; {@link Stale#FAIL_CLOSED} refuses every token with {@link StaleRevocationsException},
 * which the filters answer with 503. {@link #build()} waits for the first poll, at most its
 * deadline, so a verifier normally starts with the feed in hand.
 */
public final class RevocationFeed implements AutoCloseable {
  /**
   * The largest feed accepted: 4 MiB. An entry is about 60 bytes, so 10,000 revoked tokens are
   * about 600 KB; the feed lists only tokens that have not expired yet, so this leaves room for
   * tens of thousands. A larger body fails the poll, and the snapshot held stays.
   */
  public static final int DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

  /** The default time between two polls: a revocation reaches the verifier within about this. */
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(5);

  /** The default maximum staleness: 60 polls missed in a row at the default interval. */
  public static final Duration DEFAULT_MAX_STALENESS = Duration.ofMinutes(5);

  private static final long WARNING_INTERVAL_MILLIS = 60_000;
  private static final Logger LOG = Logger.getLogger(RevocationFeed.class.getName());

  /** What a verification does while the feed is stale (see the class comment). */
  public enum Stale {
    /** Refuse every token with {@link StaleRevocationsException}: the filters answer 503. */
    FAIL_CLOSED,
    /** Go on with the snapshot held, and log a WARNING once a minute. */
    WARN
  }

  /**
   * What the feed holds now.
   *
   * @param fetchedAtMillis when the last successful poll began, {@link Long#MIN_VALUE} if none did
   * @param staleFromMillis from when the snapshot is stale: fetched plus the maximum staleness
   */
  private record Snapshot(
      RevocationList revocations, String etag, long fetchedAtMillis, long staleFromMillis) {
    static final Snapshot NONE =
        new Snapshot(RevocationList.NONE, null, Long.MIN_VALUE, Long.MIN_VALUE);
  }

  private final String issuer;
  private final URI feedUri;
  private final Clock clock;
  private final Stale onStale;
  private final Duration maxStaleness;
  private final Duration refreshInterval;
  private final KeySetFetch<RevocationList> fetch;
  private final long builtAtMillis;
  private final AtomicLong staleRefusals = new AtomicLong();
  private final AtomicLong failedPolls = new AtomicLong();
  private final AtomicLong nextWarningMillis = new AtomicLong(Long.MIN_VALUE);
  private volatile Snapshot snapshot = Snapshot.NONE;

  /**
   * Whether the last poll failed; read and written by {@link #poll} only, which is synchronized.
   */
  private boolean failing;

  /** The feed's one thread, started by the first poll it is given. */
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "identity-revocation-feed");
            thread.setDaemon(true);
            // Holds no web application's class loader (Tomcat warns of one at stop).
            thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
            return thread;
          });

  private RevocationFeed(Builder builder) {
    this.issuer = builder.issuer;
    this.feedUri = builder.feedUri;
    this.clock = builder.clock;
    this.onStale = builder.onStale;
    this.maxStaleness = builder.maxStaleness;
    this.refreshInterval = builder.refreshInterval;
    this.fetch =
        new KeySetFetch<>(
            body -> RevocationList.read(body, issuer),
            builder.http,
            builder.connectTimeout,
            builder.readTimeout,
            builder.maxBytes);
    this.builtAtMillis = clock.millis();
  }

  /** A builder; the issuer is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Refuses {@code token} if the snapshot revokes it, then applies the staleness rule; called by
   * the verifier on every verification, cold or cached, with its own reading of the clock.
   *
   * @param subjectHash {@link RevocationList#subjectHash} of its client id, computed once per token
   * @param issuedAt its {@code iat} in seconds, {@link Long#MIN_VALUE} when it has none
   * @throws UnauthenticatedException "token revoked" (401)
   * @throws StaleRevocationsException when the feed is stale and {@link Stale#FAIL_CLOSED}
   */
  void check(String tokenId, String subjectHash, long issuedAt, long nowMillis) {
    Snapshot held = snapshot;
    if (held.revocations().revokes(tokenId, subjectHash, issuedAt)) {
      throw UnauthenticatedException.of(UnauthenticatedException.REVOKED_TOKEN, null);
    }
    if (nowMillis >= held.staleFromMillis()) {
      stale(held, nowMillis);
    }
  }

  /** The clock the verifier must share, so that one reading serves both. */
  Clock clock() {
    return clock;
  }

  /** The issuer whose feed this is; the verifier's must be the same. */
  String issuer() {
    return issuer;
  }

  private void stale(Snapshot held, long nowMillis) {
    boolean refuse = onStale == Stale.FAIL_CLOSED;
    long refused = refuse ? staleRefusals.incrementAndGet() : 0;
    long due = nextWarningMillis.get();
    boolean warn =
        nowMillis >= due
            && nextWarningMillis.compareAndSet(due, nowMillis + WARNING_INTERVAL_MILLIS);
    if (!refuse && !warn) {
      return;
    }
    StaleRevocationsException stale =
        new StaleRevocationsException(feedUri.toString(), fetchedAt(held), maxStaleness);
    if (warn) {
      LOG.warning(
          stale.getCause().getMessage()
              + (refuse
                  ? ": every bearer token is refused (503) until a poll succeeds; "
                      + refused
                      + " refused so far"
                  : ": tokens revoked since are not refused"));
    }
    if (refuse) {
      throw stale;
    }
  }

  /**
   * One poll, on the feed's thread (or a test's): the snapshot is replaced on a 200, its age
   * renewed on a 304, kept on a failure. Never throws; waits at most the fetch's deadline.
   */
  synchronized void poll() {
    Snapshot before = snapshot;
    long began = clock.millis();
    try {
      Optional<KeySetFetch.Tagged<RevocationList>> answer =
          fetch
              .revalidate(feedUri, before.etag())
              .get(fetch.deadline().toMillis() + 1000, TimeUnit.MILLISECONDS);
      Snapshot after =
          answer
              .map(got -> fresh(got.value(), got.etag(), began))
              .orElseGet(() -> fresh(before.revocations(), before.etag(), began));
      snapshot = after;
      if (failing) {
        failing = false;
        LOG.info("the revocation feed " + feedUri + " was fetched again");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      // Anything at all: a poll that threw would end the scheduled ones after it.
      failedPolls.incrementAndGet();
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      cause = cause instanceof CompletionException ? cause.getCause() : cause;
      // The first failure in a row is a WARNING, the next ones FINE: a stale feed warns by itself.
      LOG.log(
          failing ? Level.FINE : Level.WARNING,
          "the revocation feed "
              + feedUri
              + " could not be fetched ("
              + cause
              + "); the snapshot held stays");
      failing = true;
    }
  }

  private Snapshot fresh(RevocationList revocations, String etag, long began) {
    long staleFrom;
    try {
      staleFrom = Math.addExact(began, maxStaleness.toMillis());
    } catch (ArithmeticException e) {
      staleFrom = Long.MAX_VALUE;
    }
    return new Snapshot(revocations, etag, began, staleFrom);
  }

  /** Polls now, then every refresh interval after each poll ends, on one daemon thread. */
  private RevocationFeed start() {
    poll();
    long interval = refreshInterval.toNanos();
    poller.scheduleWithFixedDelay(this::poll, interval, interval, TimeUnit.NANOSECONDS);
    return this;
  }

  /** Stops the polls and the HTTP client this feed made; the snapshot held stays as it is. */
  @Override
  public void close() {
    poller.shutdownNow();
    fetch.close();
  }

  /**
   * How old the snapshot is: the time since the last successful poll began, or since the feed was
   * built when none has succeeded. A gauge of it shows a feed that stopped updating.
   */
  public Duration age() {
    long since = snapshot.fetchedAtMillis();
    return Duration.ofMillis(clock.millis() - (since == Long.MIN_VALUE ? builtAtMillis : since));
  }

  /** How many entries the snapshot holds: revoked tokens plus revoked accounts. */
  public int size() {
    return snapshot.revocations().size();
  }

  /** When the last successful poll began; empty when none has. */
  public Optional<Instant> lastGoodFetch() {
    return Optional.ofNullable(fetchedAt(snapshot));
  }

  /** How many polls failed since the feed was built. */
  public long failedPolls() {
    return failedPolls.get();
  }

  /** How many verifications were refused because the feed was stale ({@link Stale#FAIL_CLOSED}). */
  public long staleRefusals() {
    return staleRefusals.get();
  }

  private static Instant fetchedAt(Snapshot held) {
    return held.fetchedAtMillis() == Long.MIN_VALUE
        ? null
        : Instant.ofEpochMilli(held.fetchedAtMillis());
  }

  /** Sets where the feed is and how it is polled; {@link #build()} makes it and starts it. */
  public static final class Builder {
    private String issuer;
    private URI feedUri;
    private HttpClient http;
    private Clock clock = Clock.systemUTC();
    private Duration refreshInterval = DEFAULT_REFRESH_INTERVAL;
    private Duration maxStaleness = DEFAULT_MAX_STALENESS;
    private Stale onStale = Stale.WARN;
    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration readTimeout = Duration.ofSeconds(5);
    private int maxBytes = DEFAULT_MAX_BYTES;

    private Builder() {}

    /**
     * Required: the issuer's base URL, exactly as the verifier's {@code issuer} and the feed's
     * {@code issuer} member write it; the feed is {@code {issuer}/oauth/revocations}. SPEC 5.6:
     * https, or plain http to a loopback host written as such; no user info ({@link HttpsOnly}).
     *
     * @throws IllegalArgumentException naming the URL's scheme and host, when it breaks that rule
     */
    public Builder issuer(URI issuer) {
      this.issuer = HttpsOnly.check("issuer", issuer).toString();
      return this;
    }

    /**
     * The feed's own URL, instead of {@code {issuer}/oauth/revocations}; the same rule as the
     * issuer's. The feed it serves must still name the {@link #issuer}.
     */
    public Builder feedUri(URI uri) {
      this.feedUri = HttpsOnly.check("feedUri", uri);
      return this;
    }

    /**
     * The HTTP client; by default one with the connect timeout, no redirects and its own daemon
     * threads. One that follows redirects is refused.
     */
    public Builder httpClient(HttpClient http) {
      this.http = http;
      return this;
    }

    /** The clock that dates polls and decides staleness; the verifier's own. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The time from the end of one poll to the start of the next; default 5 s. */
    public Builder refreshInterval(Duration interval) {
      this.refreshInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /**
     * How old the last successful poll may be before the feed is stale; default 5 minutes. It must
     * be longer than the refresh interval plus the read timeout.
     */
    public Builder maxStaleness(Duration maxStaleness) {
      this.maxStaleness = Objects.requireNonNull(maxStaleness, "maxStaleness");
      return this;
    }

    /** What a verification does while the feed is stale; default {@link Stale#WARN}. */
    public Builder onStale(Stale onStale) {
      this.onStale = Objects.requireNonNull(onStale, "onStale");
      return this;
    }

    /** Connect timeout of the default HTTP client; default 2 s. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /**
     * The deadline of one poll, from connecting to the body's last byte; default 5 s. A feed that
     * trickles its bytes fails the poll here, its connection closed.
     */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The largest feed accepted; default {@link #DEFAULT_MAX_BYTES}, 4 MiB. */
    public Builder maxBytes(int maxBytes) {
      this.maxBytes = maxBytes;
      return this;
    }

    /**
     * The feed, polled once before this returns (at most the read timeout, whatever the answer),
     * then every refresh interval on its daemon thread.
     *
     * @throws IllegalStateException when the issuer is not set, a bound is not positive, the
     *     maximum staleness is not longer than the refresh interval plus the read timeout, or the
     *     HTTP client follows redirects
     */
    public RevocationFeed build() {
      if (issuer == null) {
        throw new IllegalStateException("a RevocationFeed needs the issuer");
      }
      if (refreshInterval.isNegative() || refreshInterval.isZero()) {
        throw new IllegalStateException("the refresh interval must be more than zero");
      }
      if (maxStaleness.compareTo(refreshInterval.plus(readTimeout)) <= 0) {
        throw new IllegalStateException(
            "the maximum staleness ("
                + maxStaleness
                + ") must be longer than the refresh interval plus the read timeout ("
                + refreshInterval.plus(readTimeout)
                + ")");
      }
      if (feedUri == null) {
        feedUri = URI.create((issuer.endsWith("/") ? issuer : issuer + "/") + "oauth/revocations");
      }
      return new RevocationFeed(this).start();
    }
  }
}
