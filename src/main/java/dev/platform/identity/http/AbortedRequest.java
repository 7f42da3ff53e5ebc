package dev.platform.identity.http;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

/**
 * A request the client gave up on: it closed the connection, or its body ended early or could not
 * be read. That is the client's doing, answered 400 and never an incident, which anyone could
 * otherwise raise at will with half a body. Recognised by what the request's own stream threw
 * ({@link #body}), and by the containers' exceptions, by name, since the WAR carries none of their
 * classes: Tomcat's and Payara's {@code ClientAbortException}, Jetty's {@code EofException}, and a
 * {@link EOFException} thrown by the container's code (never one of a database driver's socket).
 */
public final class AbortedRequest {
  private static final Set<String> CONTAINER_EXCEPTIONS =
      Set.of("ClientAbortException", "EofException");

  private static final Set<String> CONTAINER_PACKAGES =
      Set.of(
          "org.apache.coyote.",
          "org.apache.catalina.",
          "org.glassfish.grizzly.",
          "org.eclipse.jetty.");

  private AbortedRequest() {}

  /** Whether {@code failure} or one of its causes says the client gave up on the request. */
  public static boolean isCause(Throwable failure) {
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < 20; depth++, cause = cause.getCause()) {
      if (cause instanceof UnreadableBodyException || isContainers(cause)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isContainers(Throwable failure) {
    for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
      if (CONTAINER_EXCEPTIONS.contains(type.getSimpleName())) {
        return true;
      }
    }
    StackTraceElement[] frames = failure.getStackTrace();
    return failure instanceof EOFException
        && frames.length > 0
        && CONTAINER_PACKAGES.stream().anyMatch(frames[0].getClassName()::startsWith);
  }

  /** {@code body}, whose every failure to read is an {@link UnreadableBodyException}. */
  public static InputStream body(InputStream body) {
    return new WatchedBody(body);
  }

  private static final class WatchedBody extends FilterInputStream {
    private interface Read {
      long run() throws IOException;
    }

    WatchedBody(InputStream body) {
      super(body);
    }

    @Override
    public int read() throws IOException {
      return (int) watched(super::read);
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      return (int) watched(() -> super.read(buffer, offset, length));
    }

    @Override
    public long skip(long n) throws IOException {
      return watched(() -> super.skip(n));
    }

    @Override
    public int available() throws IOException {
      return (int) watched(super::available);
    }

    private static long watched(Read read) throws IOException {
      try {
        return read.run();
      } catch (UnreadableBodyException e) {
        throw e;
      } catch (IOException e) {
        throw new UnreadableBodyException(e);
      }
    }
  }

  /** The request's body could not be read to its end: the client's doing, not the service's. */
  public static final class UnreadableBodyException extends IOException {
    UnreadableBodyException(IOException cause) {
      super("the request body could not be read: " + cause, cause);
    }
  }
}
