package dev.platform.identity.token;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a token request's body with non-blocking I/O (issue 26): no request thread waits for a
 * client that sends slowly, so slow clients cannot take every thread. The whole body is due within
 * {@link #DEADLINE}; then the request is dispatched again with the body (or its refusal) as an
 * attribute, which {@link TokenBody#read} takes instead of reading. A body still incomplete at the
 * deadline gets 400 {@code invalid_request} and the connection is closed, so that the rest of the
 * body is never waited for.
 */
public final class BodyReader implements ReadListener, AsyncListener {
  /** Time for the whole body: 16 KiB in 5 s is 3 KiB/s, slower than any real client. */
  public static final Duration DEADLINE = Duration.ofSeconds(5);

  static final String TOO_SLOW =
      "request body too slow: not complete within " + DEADLINE.toSeconds() + " s";

  private static final String ATTRIBUTE = BodyReader.class.getName();

  private final AsyncContext async;
  private final ServletInputStream in;
  private final SlowBodies slowBodies;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final byte[] chunk = new byte[4096];
  private final AtomicBoolean finished = new AtomicBoolean();

  private BodyReader(AsyncContext async, ServletInputStream in, SlowBodies slowBodies) {
    this.async = async;
    this.in = in;
    this.slowBodies = slowBodies;
  }

  /**
   * Starts reading the body of {@code request} without a thread; the caller returns at once, and
   * the request comes back as an {@code ASYNC} dispatch once the body is read or refused.
   */
  public static void start(HttpServletRequest request, SlowBodies slowBodies) throws IOException {
    AsyncContext async = request.startAsync();
    async.setTimeout(DEADLINE.toMillis());
    BodyReader reader = new BodyReader(async, request.getInputStream(), slowBodies);
    async.addListener(reader);
    if (request.getContentLengthLong() > TokenBody.MAX) {
      reader.finish(tooLarge());
      return;
    }
    reader.in.setReadListener(reader);
  }

  /** The body {@link #start} read for this request, or null when it read none. */
  static TokenBody buffered(ServletRequest request) {
    Object outcome = request.getAttribute(ATTRIBUTE);
    if (outcome instanceof OAuthError refusal) {
      throw refusal;
    }
    return (TokenBody) outcome;
  }

  @Override
  public void onDataAvailable() throws IOException {
    while (!finished.get() && in.isReady()) {
      int n = in.read(chunk);
      if (n < 0) {
        return;
      }
      bytes.write(chunk, 0, n);
      if (bytes.size() > TokenBody.MAX) {
        finish(tooLarge());
      }
    }
  }

  @Override
  public void onAllDataRead() {
    finish(new TokenBody(bytes.toByteArray()));
  }

  @Override
  public void onError(Throwable failure) {
    finish(OAuthError.invalidRequest("The request body could not be read"));
  }

  @Override
  public void onTimeout(AsyncEvent event) throws IOException {
    if (finished.compareAndSet(false, true)) {
      slowBodies.cut();
      HttpServletResponse response = (HttpServletResponse) async.getResponse();
      // The rest of the body may never come: told to close, the server does not wait to drain it.
      response.setHeader("Connection", "close");
      TokenAnswer.of(OAuthError.invalidRequest(TOO_SLOW)).writeTo(response);
      async.complete();
    }
  }

  @Override
  public void onError(AsyncEvent event) {
    finished.set(true);
  }

  @Override
  public void onComplete(AsyncEvent event) {}

  @Override
  public void onStartAsync(AsyncEvent event) {}

  private void finish(Object outcome) {
    if (finished.compareAndSet(false, true)) {
      async.getRequest().setAttribute(ATTRIBUTE, outcome);
      async.dispatch();
    }
  }

  private static OAuthError tooLarge() {
    return OAuthError.invalidRequest("The request body is larger than " + TokenBody.MAX + " bytes");
  }
}
