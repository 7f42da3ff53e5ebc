package dev.platform.identity.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One oversized request body (issue 35): declared with its length ({@code 1 MB}, {@code 100 MB}) or
 * chunked without end, sent at most {@link #RATE_BYTES_PER_SECOND} while a second thread waits for
 * the answer. A service that checks the declared length against the route's cap answers before the
 * body is sent; one that reads it answers after, or never.
 */
final class HugeBody {
  static final long MB = 1_000_000;
  static final Duration DEADLINE = Duration.ofSeconds(8);

  /** Paced, so a service that reads everything costs this machine no more than it must. */
  static final long RATE_BYTES_PER_SECOND = 20 * MB;

  private static final int CHUNK = 64 * 1024;

  /** What happened: the status (0: none), whether it came before the last byte, bytes sent. */
  record Outcome(ChaosRoutes.Route route, String size, int status, boolean beforeSent, long sent) {
    boolean refusedEarly() {
      return (status == 413 || status == 400) && beforeSent;
    }

    @Override
    public String toString() {
      return route
          + " "
          + size
          + ": "
          + (status == 0 ? "no answer" : status)
          + (beforeSent ? "" : " after " + sent / MB + " MB");
    }
  }

  private HugeBody() {}

  /**
   * Sends {@code route} a body of {@code size} bytes ({@code -1}: chunked without end) with the
   * extra {@code headers}; the answer is awaited until {@link #DEADLINE}.
   */
  static Outcome send(int port, ChaosRoutes.Route route, long size, List<String> headers)
      throws InterruptedException {
    String label = size < 0 ? "chunked without end" : size / MB + " MB";
    StringBuilder head = new StringBuilder(route.method() + " " + route.path() + " HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    headers.forEach(line -> head.append(line).append("\r\n"));
    head.append("Content-Type: ").append(route.sentType()).append("\r\n");
    head.append(size < 0 ? "Transfer-Encoding: chunked" : "Content-Length: " + size);
    head.append("\r\nConnection: close\r\n\r\n");
    AtomicLong sent = new AtomicLong();
    try (Socket socket = new Socket()) {
      socket.setSendBufferSize(CHUNK);
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout((int) DEADLINE.toMillis());
      CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> status(socket));
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      boolean all = false;
      try {
        // A cap on the declared length answers at once; give it that moment before the body.
        answer.get(300, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
        all = body(out, route, size, sent, answer);
      }
      int status = answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
      return new Outcome(route, label, status, !all, sent.get());
    } catch (IOException | java.util.concurrent.ExecutionException e) {
      return new Outcome(route, label, 0, false, sent.get());
    } catch (java.util.concurrent.TimeoutException e) {
      return new Outcome(route, label, 0, false, sent.get());
    }
  }

  /** Writes the body, paced, until all is sent, the answer came, or the deadline; true if all. */
  private static boolean body(
      OutputStream out,
      ChaosRoutes.Route route,
      long size,
      AtomicLong sent,
      CompletableFuture<Integer> answer) {
    byte[] chunk = new byte[CHUNK];
    Arrays.fill(chunk, (byte) 'a');
    byte[] start = route.bodyStart().getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(start, 0, chunk, 0, start.length);
    long begin = System.nanoTime();
    long end = begin + DEADLINE.toNanos();
    try {
      while (!answer.isDone() && System.nanoTime() < end && (size < 0 || sent.get() < size)) {
        int length = (int) (size < 0 ? CHUNK : Math.min(CHUNK, size - sent.get()));
        if (size < 0) {
          out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.write(chunk, 0, length);
        if (size < 0) {
          out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        Arrays.fill(chunk, 0, start.length, (byte) 'a'); // only the first chunk starts so
        sent.addAndGet(length);
        long due = begin + sent.get() * 1_000_000_000L / RATE_BYTES_PER_SECOND;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
      out.flush();
      return size >= 0 && sent.get() >= size && !answer.isDone();
    } catch (IOException e) {
      return false; // the server closed the connection before the body was in
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The status of the answer's first line; 0 if the connection ends or times out without one. */
  private static int status(Socket socket) {
    try {
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
        line.append((char) c);
      }
      String[] parts = line.toString().split(" ");
      return parts.length > 1 && parts[0].startsWith("HTTP/") ? Integer.parseInt(parts[1]) : 0;
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }
}
