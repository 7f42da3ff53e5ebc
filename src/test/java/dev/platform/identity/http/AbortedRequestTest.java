package dev.platform.identity.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Issue 36 item 7: what counts as a client that gave up on its request, and what does not. */
class AbortedRequestTest {
  /** Stands in for Tomcat's, which the WAR does not carry: it is known by its name. */
  static final class ClientAbortException extends IOException {
    ClientAbortException(Throwable cause) {
      super(cause);
    }
  }

  /** Half a body, then the connection gone, as the container's stream reports it. */
  static InputStream halfBody() {
    return new InputStream() {
      private final InputStream half =
          new ByteArrayInputStream("{\"name\":\"ha".getBytes(StandardCharsets.UTF_8));

      @Override
      public int read() throws IOException {
        int b = half.read();
        if (b < 0) {
          throw new IOException("Connection reset by peer");
        }
        return b;
      }
    };
  }

  @Test
  void whenTheRequestStreamFailsThenTheFailureIsKnownThroughAnyWrapping() {
    InputStream body = AbortedRequest.body(halfBody());

    IOException failure = assertThrows(IOException.class, body::readAllBytes);

    assertTrue(failure instanceof AbortedRequest.UnreadableBodyException, failure.toString());
    assertTrue(AbortedRequest.isCause(failure));
    assertTrue(AbortedRequest.isCause(new UncheckedIOException(failure)));
    assertTrue(
        AbortedRequest.isCause(new RuntimeException("jersey", new IllegalStateException(failure))));
  }

  @Test
  void whenTheBodyIsWholeThenItIsReadUnchanged() throws IOException {
    byte[] json = "{\"name\":\"whole\"}".getBytes(StandardCharsets.UTF_8);

    assertArrayEquals(json, AbortedRequest.body(new ByteArrayInputStream(json)).readAllBytes());
  }

  @Test
  void whenAContainerSaysTheClientAbortedThenItIsKnownByName() {
    assertTrue(AbortedRequest.isCause(new ClientAbortException(new EOFException())));
    assertTrue(
        AbortedRequest.isCause(
            new RuntimeException(new ClientAbortException(new SocketTimeoutException()))));
  }

  @Test
  void whenTheContainersCodeThrowsEofThenItIsTheClients() {
    EOFException eof = new EOFException("Unexpected EOF read on the socket");
    eof.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("org.apache.coyote.http11.Http11InputBuffer", "fill", null, 1)
        });

    assertTrue(AbortedRequest.isCause(new RuntimeException(eof)));
  }

  @Test
  void whenADatabaseSocketEndsThenItIsNoClientAbort() {
    EOFException eof = new EOFException();
    eof.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("org.postgresql.core.PGStream", "receiveChar", null, 1)
        });
    SQLException driver = new SQLException("An I/O error occurred while sending to the backend");
    driver.initCause(eof);

    assertFalse(AbortedRequest.isCause(new IllegalStateException(driver)));
    assertFalse(AbortedRequest.isCause(new IOException("disk full")));
    assertFalse(AbortedRequest.isCause(new IllegalStateException("no cause")));
  }

  @Test
  void whenACauseChainLoopsThenTheCheckEnds() {
    IllegalStateException first = new IllegalStateException("a");
    IllegalStateException second = new IllegalStateException("b", first);
    first.initCause(second);

    assertFalse(AbortedRequest.isCause(first));
  }

  @Test
  void whenTheFailureIsAlreadyMarkedThenItIsNotWrappedAgain() {
    InputStream twice = AbortedRequest.body(AbortedRequest.body(halfBody()));

    IOException failure = assertThrows(IOException.class, twice::readAllBytes);

    assertSame(IOException.class, failure.getCause().getClass());
  }
}
