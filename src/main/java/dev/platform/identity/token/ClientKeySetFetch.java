package dev.platform.identity.token;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.jose.KeySetFetch;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One {@code GET} of a client's registered {@code jwks_uri}, whose keys verify its {@code
 * private_key_jwt} assertions (RFC 7523 §2.2), the body handed to the caller's parser. The URL is
 * the client's to choose and the service fetches it, so the fetch is fenced against server-side
 * request forgery: https only, on port 443 unless the operator allows others; a host with any
 * private address is refused ({@link #checkUri}) unless the operator allows it. Against slow or
 * huge answers it is the bounded fetch every key set here goes through ({@link KeySetFetch}): no
 * redirect, only a 200, a size cap (default 64 KiB), a deadline over connect, headers and body
 * (default 3 s). Build with {@link #builder}; the result is immutable and thread-safe.
 *
 * <p>Residual risk: the host is resolved for the check and again by the HTTP client when it
 * connects, so a DNS answer that changes in between (rebinding) can still reach a private address.
 * The JVM's address cache ({@code networkaddress.cache.ttl}, 30 s by default) usually hands the
 * connection the answer just checked, which narrows the gap without closing it. The check's own
 * lookup runs before the deadline starts, bounded by the system resolver's timeouts, on the thread
 * that starts the fetch: {@link RemoteClientKeys}' background threads, never a token request's.
 *
 * @param <T> what a body is parsed into, such as a JWK set
 */
final class ClientKeySetFetch<T> {
  /** The JNDI entry that lets a {@code jwks_uri} reach private addresses (a lab, a mesh). */
  static final String ALLOW_PRIVATE_ENTRY = JndiSettings.ALLOW_PRIVATE_JWKS_URIS;

  /** The JNDI entry that lets a {@code jwks_uri} name ports besides 443. */
  static final String PORTS_ENTRY = JndiSettings.JWKS_URI_PORTS;

  /** The https port a {@code jwks_uri} may always name. */
  static final int HTTPS_PORT = 443;

  private final boolean allowPrivate;
  private final Set<Integer> ports;
  private final Resolver resolver;
  private final KeySetFetch<T> fetch;

  /** Every address of a host name: {@link InetAddress#getAllByName} outside tests. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private ClientKeySetFetch(Builder<T> builder) {
    this.allowPrivate = builder.allowPrivate;
    this.resolver = builder.resolver;
    this.ports = Set.copyOf(builder.ports);
    this.fetch =
        new KeySetFetch<>(
            builder.parser,
            builder.http,
            builder.connectTimeout,
            builder.deadline,
            builder.maxBytes);
  }

  /** Whether the HTTP client was made (tests: not before the first fetch). */
  boolean started() {
    return fetch.started();
  }

  /** Ends the fetches: a later one fails ({@link KeySetFetch#close}). */
  void close() {
    fetch.close();
  }

  /** A builder of fetches whose bodies {@code parser} reads. */
  static <T> Builder<T> builder(KeySetFetch.Parser<T> parser) {
    return new Builder<>(parser);
  }

  /**
   * Refuses a {@code jwks_uri} the service must not fetch: at registration, and again before each
   * fetch since DNS answers change. Without {@code allowPrivate}, every address of the host must be
   * public: one private address among public ones is enough to refuse.
   *
   * @throws IllegalArgumentException saying why, in words fit for the admin API's answer
   */
  static void checkUri(URI uri, boolean allowPrivate, Set<Integer> ports, Resolver resolver) {
    if (!"https".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException("jwks_uri must use https");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty() || uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("jwks_uri must name a host, with no user info");
    }
    // Not any service of a public host (ssh on 22, a database), only https.
    int port = uri.getPort();
    if (port != -1 && port != HTTPS_PORT && !ports.contains(port)) {
      throw new IllegalArgumentException(
          "jwks_uri must use port 443"
              + (ports.isEmpty() ? "" : " or one of " + ports)
              + " ("
              + PORTS_ENTRY
              + " allows others)");
    }
    if (allowPrivate) {
      return;
    }
    for (InetAddress address : addresses(host, resolver)) {
      if (PrivateAddresses.isPrivate(address)) {
        throw notPublic();
      }
    }
  }

  private static InetAddress[] addresses(String host, Resolver resolver) {
    try {
      InetAddress[] addresses = resolver.resolve(host);
      if (addresses != null && addresses.length > 0) {
        return addresses;
      }
    } catch (UnknownHostException e) {
      // Said below.
    }
    throw notPublic();
  }

  /**
   * One answer for a host that does not resolve and one that resolves to an internal address, and
   * no address in it: an account manager must not learn the internal network's names through it (an
   * attacker review found it).
   */
  private static IllegalArgumentException notPublic() {
    return new IllegalArgumentException(
        "jwks_uri must name a host that resolves, and only to public addresses ("
            + ALLOW_PRIVATE_ENTRY
            + " allows internal ones)");
  }

  /**
   * Checks {@code uri} anew and starts its fetch. The future ends by the deadline whether or not
   * anyone waits, with the parsed body or an {@link IOException} (wrapped as futures do).
   */
  CompletableFuture<T> start(URI uri) {
    try {
      checkUri(uri, allowPrivate, ports, resolver);
    } catch (RuntimeException e) {
      // A refused or malformed URI: a failed fetch, never a thrown one.
      return CompletableFuture.failedFuture(new IOException(e.getMessage(), e));
    }
    return fetch.start(uri).thenApply(KeySetFetch.Fetched::value);
  }

  /** The most a caller waits for one fetch. */
  Duration deadline() {
    return fetch.deadline();
  }

  /** Sets the fetch's policy; {@link #build()} makes the immutable fetch. */
  public static final class Builder<T> {
    private final KeySetFetch.Parser<T> parser;
    private HttpClient http;
    private boolean allowPrivate;
    private Set<Integer> ports = Set.of();
    private Resolver resolver = InetAddress::getAllByName;
    private Duration deadline = Duration.ofSeconds(3);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private int maxBytes = 64 * 1024;

    private Builder(KeySetFetch.Parser<T> parser) {
      this.parser = Objects.requireNonNull(parser);
    }

    /** The HTTP client (tests: one that trusts their certificate); it must not follow redirects. */
    public Builder<T> httpClient(HttpClient http) {
      this.http = http;
      return this;
    }

    /**
     * Whether hosts on private addresses may be fetched ({@code identity/allowPrivateJwksUris}).
     */
    public Builder<T> allowPrivate(boolean allowPrivate) {
      this.allowPrivate = allowPrivate;
      return this;
    }

    /** The ports besides 443 a URL may name ({@code identity/jwksUriPorts}); none by default. */
    public Builder<T> ports(Set<Integer> ports) {
      this.ports = Objects.requireNonNull(ports);
      return this;
    }

    /** How host names are resolved for the address check. */
    public Builder<T> resolver(Resolver resolver) {
      this.resolver = Objects.requireNonNull(resolver);
      return this;
    }

    /** The deadline of one fetch, from connecting to the body's last byte (default 3 s). */
    public Builder<T> deadline(Duration deadline) {
      this.deadline = deadline;
      return this;
    }

    /** The connect timeout of the default HTTP client (default 2 s). */
    public Builder<T> connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    /** The largest body accepted (default 64 KiB); a larger one fails the fetch. */
    public Builder<T> maxBytes(int maxBytes) {
      this.maxBytes = maxBytes;
      return this;
    }

    /**
     * @throws IllegalStateException when a bound is not positive, or the HTTP client follows
     *     redirects (one would reach a host that no check has seen)
     */
    public ClientKeySetFetch<T> build() {
      return new ClientKeySetFetch<>(this);
    }
  }
}
