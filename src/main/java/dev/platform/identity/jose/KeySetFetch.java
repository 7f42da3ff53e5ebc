package dev.platform.identity.jose;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code GET} of a JWK Set, bounded as a whole, as every fetch of a key set here is: no
 * redirect (one would reach a host no check has seen), only a 200, a size cap ({@link
 * LimitedBody}), and a deadline over connect, headers and body that ends the fetch whether or not
 * anyone waits for it. The body is handed to the caller's {@link Parser}. The verifier's revocation
 * feed goes through it too, conditionally ({@link #revalidate}), under the same bounds.
 * Thread-safe.
 *
 * @param <T> what a body is parsed into, such as a JWK set's usable keys
 */
public final class KeySetFetch<T> {
  private static final Pattern MAX_AGE = Pattern.compile("max-age=(\\d+)");

  private final Parser<T> parser;
  private final HttpClient givenHttp;
  private final Duration connectTimeout;
  private final Duration deadline;
  private final int maxBytes;

  /** Made on the first fetch, never when nothing is fetched. */
  private HttpClient http;

  /** The threads of the HTTP client this fetch made, which {@link #close} shuts down. */
  private ExecutorService workers;

  private boolean closed;

  /** Turns a fetched body into what the cache keeps. */
  @FunctionalInterface
  public interface Parser<T> {
    /** What {@code body} holds; an {@link IOException} when it is not a usable key set. */
    T parse(byte[] body) throws IOException;
  }

  /**
   * What one fetch gave.
   *
   * @param value the parsed body
   * @param maxAge the response's {@code Cache-Control: max-age}, when it gave one
   */
  public record Fetched<T>(T value, Optional<Duration> maxAge) {}

  /**
   * A fetch whose bodies {@code parser} reads.
   *
   * @param http the HTTP client, which must not follow redirects; null for one made on first use,
   *     with {@code connectTimeout} and its own daemon threads
   * @param deadline the most one fetch takes, from connecting to the body's last byte
   * @param maxBytes the largest body accepted; a larger one fails the fetch
   * @throws IllegalStateException when the client follows redirects, or a bound is not positive
   */
  public KeySetFetch(
      Parser<T> parser, HttpClient http, Duration connectTimeout, Duration deadline, int maxBytes) {
    this.parser = Objects.requireNonNull(parser);
    if (http != null && http.followRedirects() != HttpClient.Redirect.NEVER) {
      throw new IllegalStateException(
          "the HTTP client follows redirects ("
              + http.followRedirects()
              + "): give one built with followRedirects(HttpClient.Redirect.NEVER)");
    }
    if (deadline.isNegative()
        || deadline.isZero()
        || connectTimeout.isNegative()
        || connectTimeout.isZero()
        || maxBytes < 1) {
      throw new IllegalStateException("timeouts and sizes must be positive");
    }
    this.givenHttp = http;
    this.connectTimeout = connectTimeout;
    this.deadline = deadline;
    this.maxBytes = maxBytes;
  }

  /**
   * What one conditional fetch gave ({@link #revalidate}): a new body, parsed, with the response's
   * {@code ETag}.
   *
   * @param value the parsed body
   * @param etag the response's {@code ETag} as sent (weak or strong), null when it gave none
   */
  public record Tagged<T>(T value, String etag) {}

  /**
   * Starts the fetch of {@code uri}. The future ends by the deadline whether or not anyone waits,
   * with the parsed body or an {@link IOException} (wrapped as futures do); it never throws.
   */
  public CompletableFuture<Fetched<T>> start(URI uri) {
    return exchange(
        uri,
        "application/jwk-set+json, application/json",
        null,
        response -> new Fetched<>(parsedOk(uri, response), maxAge(response)));
  }

  /**
   * Starts a conditional fetch of {@code uri} (RFC 9110 §13.1.2), bounded as {@link #start} is:
   * with {@code If-None-Match: etag} when {@code etag} is not null. The future ends by the deadline
   * with the new body parsed and its {@code ETag}, or empty on {@code 304 Not Modified} to an
   * {@code If-None-Match}; anything else, a 304 to a request without one included, fails it with an
   * {@link IOException}. Used for documents that change as a whole, such as a revocation feed.
   */
  public CompletableFuture<Optional<Tagged<T>>> revalidate(URI uri, String etag) {
    return exchange(
        uri,
        "application/json",
        etag,
        response -> {
          if (response.statusCode() == 304 && etag != null) {
            return Optional.empty();
          }
          T value = parsedOk(uri, response);
          return Optional.of(
              new Tagged<>(value, response.headers().firstValue("ETag").orElse(null)));
        });
  }

  /** Reads a response the deadline let through; any failure is the fetch's. */
  @FunctionalInterface
  private interface Reader<R> {
    R read(HttpResponse<byte[]> response) throws IOException;
  }

  private <R> CompletableFuture<R> exchange(URI uri, String accept, String etag, Reader<R> reader) {
    CompletableFuture<HttpResponse<byte[]>> exchange;
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(uri).timeout(deadline).header("Accept", accept).GET();
      if (etag != null) {
        request.header("If-None-Match", etag);
      }
      exchange = http().sendAsync(request.build(), response -> new LimitedBody(maxBytes));
    } catch (RuntimeException e) {
      // A malformed URI or ETag, or a client shut down: a failed fetch, never a thrown one.
      return CompletableFuture.failedFuture(new IOException(e.getMessage(), e));
    }
    // The request's own timeout ends when the headers arrive; this one covers the body too, and
    // cancelling closes the connection. It runs on the timer's thread: the common pool may be busy.
    AtomicBoolean late = new AtomicBoolean();
    CompletableFuture.delayedExecutor(deadline.toNanos(), TimeUnit.NANOSECONDS, Runnable::run)
        .execute(
            () -> {
              late.set(!exchange.isDone());
              exchange.cancel(true);
            });
    return exchange.handle((response, failure) -> read(uri, response, failure, late.get(), reader));
  }

  private <R> R read(
      URI uri, HttpResponse<byte[]> response, Throwable failure, boolean late, Reader<R> reader) {
    try {
      if (failure != null) {
        throw late
            ? new HttpTimeoutException(uri + " gave no complete answer within " + deadline)
            : ioException(failure);
      }
      return reader.read(response);
    } catch (IOException e) {
      throw new CompletionException(e);
    } catch (RuntimeException e) {
      throw new CompletionException(new IOException(uri + " gave no usable answer", e));
    }
  }

  /** The body of a 200, parsed; any other status fails the fetch, a redirect included. */
  private T parsedOk(URI uri, HttpResponse<byte[]> response) throws IOException {
    int status = response.statusCode();
    if (status != 200) {
      throw new IOException(
          uri
              + " answered "
              + status
              + (status / 100 == 3 && status != 304 ? ": redirects are not followed" : ""));
    }
    return Objects.requireNonNull(parser.parse(response.body()), "parsed body");
  }

  private static Optional<Duration> maxAge(HttpResponse<?> response) {
    return response
        .headers()
        .firstValue("Cache-Control")
        .map(MAX_AGE::matcher)
        .filter(Matcher::find)
        .map(m -> Duration.ofSeconds(seconds(m.group(1))));
  }

  /**
   * The digits of a max-age, saturated at {@link Long#MAX_VALUE}: RFC 9111 §1.2.2 has a delta of
   * more seconds than a long holds mean "as long as can be", and a parse that threw would fail a
   * fetch whose key set is good. The user caps the time anyway.
   */
  private static long seconds(String digits) {
    String significant = digits.replaceFirst("^0+(?=.)", "");
    return significant.length() > 18 ? Long.MAX_VALUE : Long.parseLong(significant);
  }

  private static IOException ioException(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    return cause instanceof IOException io ? io : new IOException(cause);
  }

  /** The most one fetch takes. */
  public Duration deadline() {
    return deadline;
  }

  /**
   * The HTTP client, made on first use. Made with the system class loader as the thread's context
   * loader, so that its selector thread, which the JDK starts and ends, does not hold a web
   * application's class loader (Tomcat warns of {@code HttpClient-1-SelectorManager} at stop).
   */
  private synchronized HttpClient http() {
    if (closed) {
      throw new IllegalStateException("the key-set fetch is closed");
    }
    if (http == null) {
      if (givenHttp != null) {
        http = givenHttp;
      } else {
        Thread thread = Thread.currentThread();
        ClassLoader loader = thread.getContextClassLoader();
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        try {
          workers = Executors.newCachedThreadPool(KeySetFetch::worker);
          http =
              HttpClient.newBuilder()
                  .connectTimeout(connectTimeout)
                  .followRedirects(HttpClient.Redirect.NEVER)
                  .executor(workers)
                  .build();
        } finally {
          thread.setContextClassLoader(loader);
        }
      }
    }
    return http;
  }

  /** A daemon thread that holds no web application's class loader. */
  private static Thread worker(Runnable task) {
    Thread thread = new Thread(task, "identity-key-set-http");
    thread.setDaemon(true);
    thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
    return thread;
  }

  /** Whether the HTTP client was made (not before the first fetch). */
  public synchronized boolean started() {
    return http != null;
  }

  /**
   * Ends the fetches: a later one fails. The HTTP client this fetch made is shut down where the JDK
   * allows it (Java 21's {@code shutdownNow}), and its worker threads here; on Java 17 its selector
   * thread ends once the client is unreachable, which dropping it here allows.
   */
  public synchronized void close() {
    closed = true;
    if (http != null && givenHttp == null) {
      try {
        HttpClient.class.getMethod("shutdownNow").invoke(http);
      } catch (ReflectiveOperationException e) {
        // Java 17: no shutdown; unreachable from here on.
      }
    }
    if (workers != null) {
      workers.shutdownNow();
      workers = null;
    }
    http = null;
  }
}
