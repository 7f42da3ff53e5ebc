package dev.platform.identity.verify;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A loopback HTTP/1.1 server for deadline tests, on a raw socket so a reply can stop anywhere:
 * request n gets {@code replies.apply(n)}; a stalling reply sends status, headers and the first
 * bytes of its body, then nothing more until the client hangs up or the server is closed. One
 * connection at a time, one request per connection. Closing it closes every socket and its thread.
 */
public final class StallingServer implements AutoCloseable {
  private final ServerSocket listener;
  private final IntFunction<Reply> replies;
  private final Thread acceptor;
  private final AtomicInteger requests = new AtomicInteger();
  private final CountDownLatch stalled = new CountDownLatch(1);
  private final CountDownLatch hungUp = new CountDownLatch(1);
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closing;

  /** The bytes of one answer; a stalling one keeps its connection open and silent. */
  public record Reply(String bytes, boolean stalls) {
    /** A whole answer, then the connection is closed. */
    public static Reply complete(int status, String headers, String body) {
      int length = body.getBytes(StandardCharsets.UTF_8).length;
      return new Reply(
          head(status, headers + "Content-Length: " + length + "\r\nConnection: close\r\n") + body,
          false);
    }

    /** Status and headers promising {@code length} bytes, then only {@code firstBytes} of them. */
    public static Reply stalling(int status, int length, String firstBytes) {
      return new Reply(head(status, "Content-Length: " + length + "\r\n") + firstBytes, true);
    }

    private static String head(int status, String headers) {
      return "HTTP/1.1 "
          + status
          + " Stub\r\nContent-Type: application/json\r\n"
          + headers
          + "\r\n";
    }
  }

  private StallingServer(IntFunction<Reply> replies) throws IOException {
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.replies = replies;
    this.acceptor = new Thread(this::serve, "stalling-server-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public static StallingServer start(IntFunction<Reply> replies) throws IOException {
    return new StallingServer(replies);
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /** Requests read so far. */
  public int requests() {
    return requests.get();
  }

  /** True once a reply has stalled: the client is inside the exchange, waiting for the body. */
  public boolean awaitStall(Duration bound) throws InterruptedException {
    return stalled.await(bound.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** True once a client has closed a stalled connection: it gave up and left no socket open. */
  public boolean awaitHangUp(Duration bound) throws InterruptedException {
    return hungUp.await(bound.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void serve() {
    while (!closing) {
      try (Socket socket = listener.accept()) {
        open.add(socket);
        answer(socket);
      } catch (IOException e) {
        // The listener or a socket was closed, or a client went away mid-request: next one.
      }
    }
  }

  private void answer(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    String head = readHead(in);
    in.readNBytes(contentLength(head));
    Reply reply = replies.apply(requests.incrementAndGet());
    OutputStream out = socket.getOutputStream();
    out.write(reply.bytes().getBytes(StandardCharsets.UTF_8));
    out.flush();
    if (reply.stalls()) {
      stalled.countDown();
      waitForHangUp(in);
    }
    open.remove(socket);
  }

  private void waitForHangUp(InputStream in) {
    try {
      while (in.read() >= 0) {
        // A client sends nothing more within one exchange; read until it closes.
      }
      hungUp.countDown();
    } catch (IOException e) {
      if (!closing) {
        hungUp.countDown(); // reset by the client: it hung up too
      }
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the client closed before the end of the request head");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring("content-length:".length()).trim());
      }
    }
    return 0;
  }

  @Override
  public void close() throws InterruptedException {
    closing = true;
    try {
      listener.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    for (Socket socket : open) {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing anyway.
      }
    }
    acceptor.join(TimeUnit.SECONDS.toMillis(5));
  }
}
