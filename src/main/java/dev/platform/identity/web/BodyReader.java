package dev.platform.identity.web;

import dev.platform.identity.db.DatabaseTrouble;
import dev.platform.identity.http.BufferedRequest;
import dev.platform.identity.http.Incident;
import dev.platform.identity.token.TokenAnswer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Reads a request's body with non-blocking I/O: no request thread waits for a client that sends
 * slowly. The whole body is due within {@link #DEADLINE} and may not pass its route's cap; then the
 * rest of the request runs at once, with the body in memory, on the thread that read the last
 * bytes, which completes it. (Not {@code AsyncContext.dispatch()}: Payara loses a dispatch that
 * races the end of the request's first pass, and the request then hangs until the timeout.) A body
 * still incomplete at the deadline gets 400 and the connection is closed, so that the rest of it is
 * never waited for.
 *
 * <p>A body of declared length is whole once that many bytes are in, and the reader then asks the
 * stream nothing more: on Payara, an {@code isReady()} that finds no bytes registers the listener
 * with Grizzly, and a registration left over once the request has ended takes the next request's
 * bytes on that kept-alive connection, which then hangs unanswered. A chunked body (no length) can
 * only end through the stream, so its answer closes the connection.
 */
final class BodyReader implements ReadListener, AsyncListener {
  /** The rest of the request, once its body is read: it writes the whole answer. */
  @FunctionalInterface
  interface Then {
    void handle(BufferedRequest request, HttpServletResponse response)
        throws IOException, ServletException;
  }

  /**
   * Time for the whole body: 64 KiB in 4 s is 16 KiB/s, slower than any real client. Below the
   * connector's 5 s read timeout (launcher, conf/ examples), so that a stalled body gets this
   * answer rather than the connector's own cut, which answers nothing.
   */
  static final Duration DEADLINE = Duration.ofSeconds(4);

  static final String TOO_SLOW =
      "request body too slow: not complete within " + DEADLINE.toSeconds() + " s";

  private static final Logger LOG = Logger.getLogger(BodyReader.class.getName());

  private final AsyncContext async;
  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final ServletInputStream in;
  private final int cap;

  /** The declared length, or -1 for a chunked body. */
  private final long declared;

  private final SlowBodies slowBodies;
  private final Then then;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final byte[] chunk = new byte[4096];
  private final AtomicBoolean finished = new AtomicBoolean();

  private BodyReader(
      HttpServletRequest request,
      HttpServletResponse response,
      int cap,
      SlowBodies slowBodies,
      Then then)
      throws IOException {
    this.async = request.startAsync(request, response);
    this.request = request;
    this.response = response;
    this.in = request.getInputStream();
    this.cap = cap;
    this.declared = request.getContentLengthLong();
    this.slowBodies = slowBodies;
    this.then = then;
  }

  /**
   * Starts reading the body of {@code request}, at most {@code cap} bytes, without a thread; the
   * caller returns at once, and {@code then} runs once the body is read.
   */
  static void start(
      HttpServletRequest request,
      HttpServletResponse response,
      int cap,
      SlowBodies slowBodies,
      Then then)
      throws IOException {
    BodyReader reader = new BodyReader(request, response, cap, slowBodies, then);
    reader.async.setTimeout(DEADLINE.toMillis());
    reader.async.addListener(reader);
    reader.in.setReadListener(reader);
  }

  @Override
  public void onDataAvailable() throws IOException {
    while (!finished.get() && !whole() && in.isReady()) {
      int n = in.read(chunk, 0, (int) Math.min(chunk.length, wanted()));
      if (n < 0) {
        if (declared >= 0) {
          cut(new EOFException(bytes.size() + " of " + declared + " bytes"));
          return;
        }
        break;
      }
      bytes.write(chunk, 0, n);
      if (bytes.size() > cap) {
        refuse(413, FrontDoor.tooLarge(cap), false, null);
        return;
      }
    }
    // Grizzly (Payara) may not call onAllDataRead once the end was read here.
    if (whole() || (declared < 0 && !finished.get() && in.isFinished())) {
      onAllDataRead();
    }
  }

  /** Whether the declared length is in: then the stream is not asked again. */
  private boolean whole() {
    return declared >= 0 && bytes.size() >= declared;
  }

  /** How many bytes one read may take: the rest of a declared length, or a chunk. */
  private long wanted() {
    return declared >= 0 ? declared - bytes.size() : chunk.length;
  }

  /**
   * The container's word that the stream has ended. Short of a declared length that is a body cut
   * short, however the container ends it (a read of -1 or this call), and it is refused unhandled.
   */
  @Override
  public void onAllDataRead() {
    if (declared >= 0 && !whole()) {
      cut(new EOFException(bytes.size() + " of " + declared + " bytes"));
      return;
    }
    finish();
  }

  @Override
  public void onError(Throwable failure) {
    cut(failure);
  }

  /** The deadline: a body still coming is cut. */
  @Override
  public void onTimeout(AsyncEvent event) {
    cut(new SocketTimeoutException());
  }

  /** The connector's own read timeout, or a broken connection, while the body came. */
  @Override
  public void onError(AsyncEvent event) {
    cut(event.getThrowable());
  }

  @Override
  public void onComplete(AsyncEvent event) {}

  @Override
  public void onStartAsync(AsyncEvent event) {}

  private void cut(Throwable failure) {
    boolean slow = failure instanceof SocketTimeoutException;
    refuse(400, slow ? TOO_SLOW : "The request body could not be read", slow, failure);
  }

  /**
   * A body that did not come whole, or came too large: 400 (or 413), and the connection closed so
   * that the rest of it is never waited for. Once the body is read, the rest of the request holds
   * this reader's lock until it completes, so a deadline that passes meanwhile waits for it instead
   * of letting the container answer a second time.
   */
  private synchronized void refuse(int status, String why, boolean slow, Throwable failure) {
    if (!finished.compareAndSet(false, true)) {
      return; // the reader's and the container's listeners both report one failure
    }
    if (slow) {
      slowBodies.cut();
    } else if (failure != null) {
      // A body the client gave up on is its own doing, not an incident.
      LOG.fine(
          () ->
              "Request body to " + request.getRequestURI() + " given up by the client: " + failure);
    }
    try {
      if (!response.isCommitted()) {
        response.setHeader("Connection", "close");
        FrontDoor.refuse(request, response, status, why);
      }
    } catch (IOException e) {
      // the client is gone
    } finally {
      async.complete();
    }
  }

  /** The body is read: the rest of the request runs now, and completes it. */
  private synchronized void finish() {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    try {
      if (declared < 0) {
        response.setHeader("Connection", "close");
      }
      then.handle(new BufferedRequest(request, bytes.toByteArray()), response);
    } catch (IOException | ServletException | RuntimeException e) {
      serverError(e);
    } finally {
      async.complete();
    }
  }

  /**
   * DESIGN decision 6, for a failure that escaped the rest of the request: at the token endpoint as
   * it answers its own failures (a busy or slow database: 500 {@code server_error} with {@code
   * Retry-After} and no incident); elsewhere, a busy or slow database is 503 with {@code
   * Retry-After} in the surface's shape, anything else 500 naming a logged incident.
   */
  private void serverError(Exception failure) {
    if (response.isCommitted()) {
      if (DatabaseTrouble.of(failure).isEmpty()) {
        Incident.logged(failure); // a busy or slow database is the guard's to log, once a minute
      }
      return;
    }
    try {
      Surface surface = Surface.of(BodyLimits.mappedPath(request));
      if (surface == Surface.TOKEN) {
        TokenAnswer.ofFailure(failure).writeTo(response);
      } else if (DatabaseTrouble.of(failure).isPresent()) {
        response.setHeader("Retry-After", Integer.toString(DatabaseTrouble.RETRY_AFTER_SECONDS));
        ErrorAnswers.refusal(
            response, surface, 503, "The service's database is busy or slow; retry shortly");
      } else {
        ErrorAnswers.serverError(response, 500, Incident.logged(failure));
      }
    } catch (IOException e) {
      // the client is gone
    }
  }
}
