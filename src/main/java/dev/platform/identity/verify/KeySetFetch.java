package dev.platform.identity.verify;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code GET} of the issuer's key set, bounded as a whole: a deadline over connect, headers and
 * body, a size cap, and only the keys {@link JwkSet} can use. Fails with an {@link IOException}.
 */
final class KeySetFetch {
  private static final Pattern MAX_AGE = Pattern.compile("max-age=(\\d+)");

  private final URI keySetUri;
  private final HttpClient http;
  private final Duration deadline;
  private final int maxBytes;

  /** The usable keys, and the response's {@code max-age} when it gave one. */
  record Result(Map<String, PublicKey> keys, Optional<Duration> maxAge) {}

  KeySetFetch(URI keySetUri, HttpClient http, Duration deadline, int maxBytes) {
    this.keySetUri = keySetUri;
    this.http = http;
    this.deadline = deadline;
    this.maxBytes = maxBytes;
  }

  /** Starts the fetch; the future ends by the deadline, whether or not anyone waits for it. */
  CompletableFuture<Result> start() {
    HttpRequest request =
        HttpRequest.newBuilder(keySetUri)
            .timeout(deadline)
            .header("Accept", "application/json")
            .GET()
            .build();
    CompletableFuture<HttpResponse<byte[]>> exchange;
    try {
      exchange = http.sendAsync(request, response -> new LimitedBody(maxBytes));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(new IOException(e));
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
    return exchange.handle(
        (response, failure) -> {
          try {
            if (failure != null) {
              throw late.get()
                  ? new HttpTimeoutException(
                      keySetUri + " gave no complete answer within " + deadline)
                  : ioException(failure);
            }
            return result(response);
          } catch (IOException e) {
            throw new CompletionException(e);
          }
        });
  }

  private Result result(HttpResponse<byte[]> response) throws IOException {
    if (response.statusCode() != 200) {
      throw new IOException(keySetUri + " answered " + response.statusCode());
    }
    Optional<Duration> maxAge =
        response
            .headers()
            .firstValue("Cache-Control")
            .map(MAX_AGE::matcher)
            .filter(Matcher::find)
            .map(m -> Duration.ofSeconds(Long.parseLong(m.group(1))));
    return new Result(JwkSet.usableKeys(response.body()), maxAge);
  }

  private static IOException ioException(Throwable failure) {
    Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
    return cause instanceof IOException io ? io : new IOException(cause);
  }
}
