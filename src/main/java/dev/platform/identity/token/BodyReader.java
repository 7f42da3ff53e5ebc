package dev.platform.identity.token;

import dev.platform.identity.http.Incident;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a token request's body with non-blocking I/O (issue 26): no request thread waits for a
 * client that sends slowly, so slow clients cannot take every thread. The whole body is due within
 * {@link #DEADLINE}; then the body (or its refusal) becomes a request attribute, which {@link
 * TokenBody#read} takes instead of reading, and the rest of the request runs at once on the thread
 * that read the last bytes, which completes it. (Not {@code AsyncContext.dispatch()}: Payara loses
 * a dispatch that races the end of the request's first pass, and the request then hangs until the
 * timeout.) A body still incomplete at the deadline gets 400 {@code invalid_request} and the
 * connection is closed, so that the rest of the body is never waited for.
 */
public final class BodyReader implements ReadListener, AsyncListener {
  /** The rest of the request, once its body is read: it writes the whole answer. */
  @FunctionalInterface
  public interface Then {
    void handle(HttpServletRequest request, HttpServletResponse response)
        throws IOException, ServletException;
  }

  /**
   * Time for the whole body: 16 KiB in 4 s is 4 KiB/s, slower than any real client. Below the
   * connector's 5 s read timeout (launcher, conf/ examples), so that a stalled body gets this
   * answer rather than the connector's own cut, which answers nothing.
   */
  public static final Duration DEADLINE = Duration.ofSeconds(4);

  static final String TOO_SLOW =
      "request body too slow: not complete within " + DEADLINE.toSeconds() + " s";

  private static final String ATTRIBUTE = BodyReader.class.getName();

  private final AsyncContext async;
  private final ServletInputStream in;
  private final SlowBodies slowBodies;
  private final Then then;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final byte[] chunk = new byte[4096];
  private final AtomicBoolean finished = new AtomicBoolean();

  private BodyReader(AsyncContext async, ServletInputStream in, SlowBodies slowBodies, Then then) {
    this.async = async;
    this.in = in;
    this.slowBodies = slowBodies;
    this.then = then;
  }

  /**
   * Starts reading the body of {@code request} without a thread; the caller returns at once, and
   * {@code then} runs once the body is read or refused.
   */
  public static void start(HttpServletRequest request, SlowBodies slowBodies, Then then)
      throws IOException {
    AsyncContext async = request.startAsync();
    async.setTimeout(DEADLINE.toMillis());
    BodyReader reader = new BodyReader(async, request.getInputStream(), slowBodies, then);
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
        break;
      }
      bytes.write(chunk, 0, n);
      if (bytes.size() > TokenBody.MAX) {
        finish(tooLarge());
      }
    }
    // Grizzly (Payara) may not call onAllDataRead once the end was read here.
    if (in.isFinished()) {
      onAllDataRead();
    }
  }

  @Override
  public void onAllDataRead() {
    finish(new TokenBody(bytes.toByteArray()));
  }

  @Override
  public void onError(Throwable failure) {
    refuse(failure);
  }

  /** The deadline: a body still coming is cut. */
  @Override
  public void onTimeout(AsyncEvent event) {
    refuse(new SocketTimeoutException());
  }

  /** The connector's own read timeout, or a broken connection, while the body came. */
  @Override
  public void onError(AsyncEvent event) {
    refuse(event.getThrowable());
  }

  /**
   * A body that did not come whole: 400, "too slow" when time ran out, and the connection closed so
   * that the rest of it is never waited for. Once the body is read, the rest of the request holds
   * this reader's lock until it completes, so a deadline that passes meanwhile waits for it instead
   * of letting the container answer a second time.
   */
  private synchronized void refuse(Throwable failure) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    boolean slow = failure instanceof SocketTimeoutException;
    if (slow) {
      slowBodies.cut();
    }
    HttpServletResponse response = (HttpServletResponse) async.getResponse();
    try {
      if (!response.isCommitted()) {
        response.setHeader("Connection", "close");
        OAuthError refusal =
            OAuthError.invalidRequest(slow ? TOO_SLOW : "The request body could not be read");
        TokenAnswer.of(refusal).writeTo(response);
      }
    } catch (IOException e) {
      // the client is gone
    } finally {
      async.complete();
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {}

  @Override
  public void onStartAsync(AsyncEvent event) {}

  /** The body is read (or refused): the rest of the request runs now, and completes it. */
  private synchronized void finish(Object outcome) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    HttpServletRequest request = (HttpServletRequest) async.getRequest();
    HttpServletResponse response = (HttpServletResponse) async.getResponse();
    request.setAttribute(ATTRIBUTE, outcome);
    try {
      then.handle(request, response);
    } catch (IOException | ServletException | RuntimeException e) {
      serverError(response, e);
    } finally {
      async.complete();
    }
  }

  /** DESIGN decision 6, as the token endpoint answers its own failures. */
  private static void serverError(HttpServletResponse response, Exception failure) {
    TokenAnswer answer = TokenAnswer.of(Incident.logged(failure));
    if (!response.isCommitted()) {
      try {
        answer.writeTo(response);
      } catch (IOException e) {
        // the client is gone; the incident is logged
      }
    }
  }

  private static OAuthError tooLarge() {
    return OAuthError.invalidRequest("The request body is larger than " + TokenBody.MAX + " bytes");
  }
}
