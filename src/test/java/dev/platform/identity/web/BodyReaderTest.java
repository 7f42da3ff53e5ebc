package dev.platform.identity.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.http.CapturedResponse;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The body reader driven as a container drives it: a stream that hands out the bytes that have
 * come, a listener called back by the test. Payara's Grizzly takes an {@code isReady()} that finds
 * no bytes as a registration for the next bytes on the connection, so once a declared length is in,
 * the stream must not be asked again: the next request on a kept-alive connection would go to this
 * request's listener and hang.
 */
class BodyReaderTest {
  /** The bytes a client has sent so far, handed out as a non-blocking stream hands them out. */
  static final class ArrivingBody extends ServletInputStream {
    final Deque<byte[]> arrived = new ArrayDeque<>();
    boolean ended;
    boolean recycled;
    int handedOut;
    int askedAfterTheLastByte;
    ReadListener listener;

    void arrive(String text) {
      arrived.add(text.getBytes(StandardCharsets.UTF_8));
    }

    private void touch() {
      if (recycled) {
        throw new NullPointerException("the request was recycled");
      }
    }

    @Override
    public boolean isFinished() {
      touch();
      return ended && arrived.isEmpty();
    }

    @Override
    public boolean isReady() {
      touch();
      if (arrived.isEmpty()) {
        askedAfterTheLastByte++;
      }
      return !arrived.isEmpty() || ended;
    }

    @Override
    public void setReadListener(ReadListener listener) {
      this.listener = listener;
    }

    @Override
    public int read() {
      throw new UnsupportedOperationException("one byte at a time");
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      touch();
      if (arrived.isEmpty()) {
        return -1;
      }
      byte[] next = arrived.poll();
      int n = Math.min(length, next.length);
      System.arraycopy(next, 0, into, offset, n);
      if (n < next.length) {
        byte[] rest = new byte[next.length - n];
        System.arraycopy(next, n, rest, 0, rest.length);
        arrived.addFirst(rest);
      }
      handedOut += n;
      return n;
    }
  }

  final ArrivingBody body = new ArrivingBody();
  final CapturedResponse captured = new CapturedResponse();
  final List<String> handled = new ArrayList<>();
  int completed;
  boolean committed;

  /** A request to /oauth/token whose body of {@code length} bytes (-1: chunked) comes as told. */
  HttpServletRequest request(long length) {
    AsyncContext async =
        (AsyncContext)
            Proxy.newProxyInstance(
                AsyncContext.class.getClassLoader(),
                new Class<?>[] {AsyncContext.class},
                (self, method, args) -> {
                  if (method.getName().equals("complete")) {
                    completed++;
                  }
                  return null;
                });
    return (HttpServletRequest)
        Proxy.newProxyInstance(
            HttpServletRequest.class.getClassLoader(),
            new Class<?>[] {HttpServletRequest.class},
            (self, method, args) ->
                switch (method.getName()) {
                  case "startAsync" -> async;
                  case "getInputStream" -> body;
                  case "getContentLengthLong" -> length;
                  case "getContentLength" -> (int) length;
                  case "getRequestURI", "getServletPath" -> "/oauth/token";
                  case "getPathInfo" -> null;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** The captured response, which also says whether it is committed. */
  HttpServletResponse response() {
    HttpServletResponse inner = captured.proxy();
    return (HttpServletResponse)
        Proxy.newProxyInstance(
            HttpServletResponse.class.getClassLoader(),
            new Class<?>[] {HttpServletResponse.class},
            (self, method, args) -> {
              if (method.getName().equals("isCommitted")) {
                return committed;
              }
              return method.invoke(inner, args);
            });
  }

  void start(long length) throws Exception {
    BodyReader.start(
        request(length),
        response(),
        64 * 1024,
        new SlowBodies(Clock.fixed(Instant.parse("2026-11-27T08:00:00Z"), ZoneOffset.UTC)),
        (read, answer) -> {
          handled.add(new String(read.body(), StandardCharsets.UTF_8));
          committed = true;
        });
    assertNotNull(body.listener, "the reader listens to the stream");
  }

  @Test
  void whenTheDeclaredLengthIsInThenTheRestRunsAndTheStreamIsNotAskedAgain() throws Exception {
    start(29);
    body.arrive("grant_type=client_credentials");
    // As Grizzly before it parses the end of the message: the bytes are all in, not yet "finished".
    body.listener.onDataAvailable();

    assertEquals(List.of("grant_type=client_credentials"), handled);
    assertEquals(1, completed);
    assertEquals(0, body.askedAfterTheLastByte, "isReady() after the declared length was read");
  }

  @Test
  void whenTheBodyComesInPiecesThenEachCallbackReadsWhatCameAndTheLastOneRunsTheRest()
      throws Exception {
    start(29);
    body.arrive("grant_type=");
    body.listener.onDataAvailable();
    assertEquals(List.of(), handled, "half a body");
    assertEquals(0, completed);

    body.arrive("client_credentials");
    body.listener.onDataAvailable();
    assertEquals(List.of("grant_type=client_credentials"), handled);
    assertEquals(1, completed);
    assertEquals(1, body.askedAfterTheLastByte, "only while the body was half in");
  }

  @Test
  void whenACallbackComesAfterTheRequestEndedThenTheStreamIsNotTouched() throws Exception {
    start(29);
    body.arrive("grant_type=client_credentials");
    body.listener.onDataAvailable();
    // Payara calls a listener left registered once its request is recycled: every stream call
    // then throws.
    body.recycled = true;
    body.listener.onDataAvailable();
    body.listener.onAllDataRead();

    assertEquals(1, handled.size());
    assertEquals(1, completed);
  }

  @Test
  void whenTheClientStopsShortOfTheDeclaredLengthThenTheBodyIsRefusedUnhandled() throws Exception {
    start(29);
    body.arrive("grant_type=");
    body.ended = true;
    body.listener.onDataAvailable();

    assertEquals(List.of(), handled);
    assertEquals(1, completed);
    assertEquals(400, captured.status(), captured.toString());
    assertTrue(captured.body().contains("could not be read"), captured.toString());
    assertEquals("close", captured.headers().get("Connection"));
  }

  /**
   * A container may end a short body with {@code onAllDataRead} rather than a read of -1 (the
   * servlet API leaves how a stream ends to it): the declared length still decides, and the part
   * that came is not handled as if it were the whole body.
   */
  @Test
  void whenTheContainerSaysAllIsReadShortOfTheDeclaredLengthThenTheBodyIsRefusedUnhandled()
      throws Exception {
    start(29);
    body.arrive("grant_type=");
    body.listener.onDataAvailable();
    body.ended = true;
    body.listener.onAllDataRead();

    assertEquals(List.of(), handled);
    assertEquals(1, completed);
    assertEquals(400, captured.status(), captured.toString());
    assertEquals("close", captured.headers().get("Connection"));
  }

  @Test
  void whenAChunkedBodyEndsThenTheRestRunsAndTheAnswerClosesTheConnection() throws Exception {
    start(-1);
    body.arrive("grant_type=client_credentials");
    body.ended = true;
    body.listener.onDataAvailable();

    assertEquals(List.of("grant_type=client_credentials"), handled);
    assertEquals(1, completed);
    assertEquals("close", captured.headers().get("Connection"));
  }

  @Test
  void whenADeclaredLengthIsReadThenTheConnectionIsKept() throws Exception {
    start(29);
    body.arrive("grant_type=client_credentials");
    body.listener.onDataAvailable();

    assertNull(captured.headers().get("Connection"));
    assertFalse(handled.isEmpty());
  }
}
