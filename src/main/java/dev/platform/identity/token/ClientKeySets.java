package dev.platform.identity.token;

import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The key sets private_key_jwt clients publish at their {@code jwks_uri}: checked before a URL is
 * stored ({@link #check}, which also warms the cache), fetched over https with {@link
 * ClientKeySetFetch}'s bounds, their unusable entries skipped ({@link ClientJwks#published}), and
 * cached per URL by {@link RemoteClientKeys}. Fetches run only on this class's own few daemon
 * threads, never on a token request's; {@link #close} stops them and the HTTP client.
 */
public final class ClientKeySets implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClientKeySets.class.getName());

  /** Fetches at once; more wait in the queue, and past it are tried a refetch interval later. */
  static final int FETCH_THREADS = 2;

  static final int FETCH_QUEUE = 1000;

  private final boolean allowPrivate;
  private final Set<Integer> ports;
  private final ClientKeySetFetch<ClientJwks> fetch;
  private final RemoteClientKeys<ClientJwks> cache;
  private final ThreadPoolExecutor ownThreads;
  private final Counter notYet;
  private final Counter tooOld;

  /**
   * The sets of the service: {@code identity/allowPrivateJwksUris}, {@code identity/jwksUriPorts}
   * and {@code identity/clientKeySetMaxAge} from {@code settings}; refusals counted in {@code
   * registry}, a set that passes its maximum age audited.
   */
  public ClientKeySets(
      Settings.ClientKeys settings, Clock clock, MeterRegistry registry, AuditLog audit) {
    this(
        settings.allowPrivateJwksUris(),
        settings.jwksUris().ports(),
        ClientKeySetFetch.builder(ClientJwks::published)
            .allowPrivate(settings.allowPrivateJwksUris())
            .ports(settings.jwksUris().ports())
            .build(),
        RemoteClientKeys.Times.DEFAULT.withMaxAge(settings.jwksUris().keySetMaxAge()),
        clock,
        registry,
        audit,
        null);
  }

  /**
   * Tests: sets fetched by {@code fetch} on {@code executor}, or on threads of this class's own
   * when it is null.
   */
  ClientKeySets(
      boolean allowPrivate,
      Set<Integer> ports,
      ClientKeySetFetch<ClientJwks> fetch,
      RemoteClientKeys.Times times,
      Clock clock,
      MeterRegistry registry,
      AuditLog audit,
      Executor executor) {
    this.allowPrivate = allowPrivate;
    this.ports = Set.copyOf(ports);
    this.fetch = fetch;
    this.ownThreads = executor == null ? fetchThreads() : null;
    this.notYet = refusals(registry, "not_yet_available");
    this.tooOld = refusals(registry, "too_old");
    this.cache =
        new RemoteClientKeys<>(
            fetch,
            clock,
            executor == null ? ownThreads : executor,
            times,
            (uri, fetchedAt) -> expired(audit, times, uri, fetchedAt));
  }

  private static Counter refusals(MeterRegistry registry, String reason) {
    return Counter.builder("identity.token.client.keyset.refusals")
        .description(
            "private_key_jwt assertions refused because the client's jwks_uri key set was not"
                + " yet fetched or is older than identity/clientKeySetMaxAge")
        .tag("reason", reason)
        .register(registry);
  }

  /** The operator learns which client lost its keys, and since when. */
  private static void expired(
      AuditLog audit, RemoteClientKeys.Times times, String uri, Instant fetchedAt) {
    audit.record(
        "client.keyset.expired",
        null,
        uri,
        "refused",
        null,
        Map.of("fetched_at", fetchedAt.toString(), "max_age", times.maxAge().toString()));
  }

  /**
   * Daemon threads, a bounded queue; a task past it is refused (the cache retries later). Tomcat
   * warned at stop of a JDK thread the fetch had started with the application's class loader.
   */
  private static ThreadPoolExecutor fetchThreads() {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(
        FETCH_THREADS,
        FETCH_THREADS,
        60,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(FETCH_QUEUE),
        task -> {
          Thread thread = new Thread(task, "identity-jwks-uri-" + count.incrementAndGet());
          thread.setDaemon(true);
          // What the JDK starts from here for good (the HTTP client's selector, the timer of
          // CompletableFuture.delayedExecutor) must not hold the web application's class loader.
          thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
          return thread;
        });
  }

  /**
   * The cached set at {@code uri}, at once. A fetch is scheduled when the set is stale, missing,
   * or, with {@code refresh}, lacked a key the caller needed (at most once a minute per URL).
   *
   * @throws ClientKeysUnavailableException when no set was had from it yet, or the last one is
   *     older than {@code identity/clientKeySetMaxAge}
   */
  public ClientJwks at(URI uri, boolean refresh) {
    try {
      return cache.get(uri, refresh);
    } catch (ClientKeysUnavailableException e) {
      (e.expired() ? tooOld : notYet).increment();
      throw e;
    }
  }

  /**
   * Refuses a URL that is not https, names another port than 443 and those allowed, or whose host
   * resolves to an internal address unless those are allowed; a URL it takes is fetched in the
   * background, so the client's first token request finds its set.
   *
   * @throws IllegalArgumentException saying why
   */
  public void check(URI uri) {
    ClientKeySetFetch.checkUri(uri, allowPrivate, ports, InetAddress::getAllByName);
    cache.warm(uri);
  }

  /** For a scheduler: refreshes the sets in use that are due. */
  public void refreshDue() {
    try {
      cache.refreshDue();
    } catch (RuntimeException e) {
      // A scheduler drops a task that throws: the next minute tries again instead.
      LOG.log(Level.WARNING, "The refresh of clients' jwks_uri key sets failed", e);
    }
  }

  /** Stops the fetch threads (a fetch under way is interrupted) and the HTTP client. */
  @Override
  public void close() {
    if (ownThreads != null) {
      ownThreads.shutdownNow();
      try {
        // A fetch ends at its deadline at the latest; the container's check of leftover threads
        // comes right after this.
        ownThreads.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    fetch.close();
  }
}
