package dev.platform.identity.token;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.verify.LimitedBody;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@code GET} of a client's registered {@code jwks_uri}, whose keys verify its {@code
 * private_key_jwt} assertions (issue 22, RFC 7523 §2.2), the body handed to the caller's {@link
 * Parser}. The URL is the client's to choose and the service fetches it, so the fetch is fenced
 * against server-side request forgery and against slow or huge answers: https only; a host with any
 * private address is refused ({@link #checkUri}) unless the operator allows it; no redirect, only a
 * 200; a size cap (default 64 KiB); a deadline over connect, headers and body (default 3 s). Build
 * with {@link #builder}; the result is immutable and thread-safe.
 *
 * <p>Residual risk: the host is resolved for the check and again by the HTTP client when it
 * connects, so a DNS answer that changes in between (rebinding) can still reach a private address.
 * The JVM's address cache ({@code networkaddress.cache.ttl}, 30 s by default) usually hands the
 * connection the answer just checked, which narrows the gap without closing it. The check's own
 * lookup runs before the deadline starts, bounded by the system resolver's timeouts.
 *
 * @param <T> what a body is parsed into, such as a JWK set
 */
public final class ClientKeySetFetch<T> {
  /** The JNDI entry that lets a {@code jwks_uri} reach private addresses (a lab, a mesh). */
  static final String ALLOW_PRIVATE_ENTRY = JndiSettings.ALLOW_PRIVATE_JWKS_URIS;

  private final Parser<T> parser;
  private final HttpClient http;
  private final boolean allowPrivate;
  private final Resolver resolver;
  private final Duration deadline;
  private final int maxBytes;

  /** Turns a fetched body into what the cache keeps, such as a JWK set. */
  @FunctionalInterface
  public interface Parser<T> {
    /** What {@code body} holds; an {@link IOException} when it is not a usable key set. */
    T parse(byte[] body) throws IOException;
  }

  /** Every address of a host name: {@link InetAddress#getAllByName} outside tests. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private ClientKeySetFetch(Builder<T> builder) {
    this.parser = builder.parser;
    this.allowPrivate = builder.allowPrivate;
    this.resolver = builder.resolver;
    this.deadline = builder.deadline;
    this.maxBytes = builder.maxBytes;
    this.http =
        builder.http != null
            ? builder.http
            : HttpClient.newBuilder()
                .connectTimeout(builder.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
  }

  /** A builder of fetches whose bodies {@code parser} reads. */
  public static <T> Builder<T> builder(Parser<T> parser) {
    return new Builder<>(parser);
  }

  /**
   * Refuses a {@code jwks_uri} the service must not fetch: at registration, and again before each
   * fetch since DNS answers change. Without {@code allowPrivate}, every address of the host must be
   * public: one private address among public ones is enough to refuse.
   *
   * @throws IllegalArgumentException saying why, in words fit for the admin API's answer
   */
  public static void checkUri(URI uri, boolean allowPrivate, Resolver resolver) {
    if (!"https".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException("jwks_uri must use https");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("jwks_uri must name a host");
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
   * no address in it: an account manager must not learn the internal network's names through it
   * (the attacker review of issue 22).
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
    CompletableFuture<HttpResponse<byte[]>> exchange;
    try {
      checkUri(uri, allowPrivate, resolver);
      HttpRequest request =
          HttpRequest.newBuilder(uri)
              .timeout(deadline)
              .header("Accept", "application/jwk-set+json, application/json")
              .GET()
              .build();
      exchange = http.sendAsync(request, response -> new LimitedBody(maxBytes));
    } catch (RuntimeException e) {
      // A refused or malformed URI, or a client shut down: a failed fetch, never a thrown one.
      return CompletableFuture.failedFuture(new IOException(e.getMessage(), e));
    }
    // As in verify.KeySetFetch: the request's timeout ends with the headers, this one covers the
    // body too, and cancelling closes the connection. It runs on the timer's thread.
    AtomicBoolean late = new AtomicBoolean();
    CompletableFuture.delayedExecutor(deadline.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
        .execute(
            () -> {
              late.set(!exchange.isDone());
              exchange.cancel(true);
            });
    return exchange.handle((response, failure) -> parsed(uri, response, failure, late.get()));
  }

  private T parsed(URI uri, HttpResponse<byte[]> response, Throwable failure, boolean late) {
    try {
      if (failure != null) {
        throw late
            ? new HttpTimeoutException(uri + " gave no complete answer within " + deadline)
            : ioException(failure);
      }
      int status = response.statusCode();
      if (status != 200) {
        throw new IOException(
            uri
                + " answered "
                + status
                + (status / 100 == 3 ? ": redirects are not followed" : ""));
      }
      return Objects.requireNonNull(parser.parse(response.body()), "parsed key set");
    } catch (IOException e) {
      throw new CompletionException(e);
    } catch (RuntimeException e) {
      throw new CompletionException(new IOException(uri + " gave no usable key set", e));
    }
  }

  private static IOException ioException(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    return cause instanceof IOException io ? io : new IOException(cause);
  }

  /** The most a caller waits for one fetch. */
  Duration deadline() {
    return deadline;
  }

  /** Sets the fetch's policy; {@link #build()} makes the immutable fetch. */
  public static final class Builder<T> {
    private final Parser<T> parser;
    private HttpClient http;
    private boolean allowPrivate;
    private Resolver resolver = InetAddress::getAllByName;
    private Duration deadline = Duration.ofSeconds(3);
    private Duration connectTimeout = Duration.ofSeconds(2);
    private int maxBytes = 64 * 1024;

    private Builder(Parser<T> parser) {
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

    public ClientKeySetFetch<T> build() {
      if (deadline.isNegative()
          || deadline.isZero()
          || connectTimeout.isNegative()
          || connectTimeout.isZero()
          || maxBytes < 1) {
        throw new IllegalStateException("timeouts and sizes must be positive");
      }
      if (http != null && http.followRedirects() != HttpClient.Redirect.NEVER) {
        // A followed redirect would reach a host that no check has seen.
        throw new IllegalStateException("the HTTP client must not follow redirects");
      }
      return new ClientKeySetFetch<>(this);
    }
  }
}
