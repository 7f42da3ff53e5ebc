package dev.platform.identity.it;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pipelining without reading the answers (issue 35): {@code sockets} connections from 127.0.0.1,
 * each with a small receive buffer, each sent {@code requests} requests back to back and never read
 * from, so the service's answers pile up until its writes block.
 */
final class Pipeline implements AutoCloseable {
  private static final int RECEIVE_BUFFER = 4096;

  private final List<Socket> sockets = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong written = new AtomicLong();

  private Pipeline() {}

  /**
   * Starts writing {@code request} {@code requests} times on each of {@code count} sockets, a
   * thread each: a write the service no longer reads blocks only its own connection.
   */
  static Pipeline start(int port, int count, int requests, String request) {
    Pipeline pipeline = new Pipeline();
    byte[] bytes = request.getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i < count; i++) {
      Thread thread = new Thread(() -> pipeline.write(port, requests, bytes), "chaos-pipeline");
      thread.setDaemon(true);
      pipeline.threads.add(thread);
      thread.start();
    }
    return pipeline;
  }

  private void write(int port, int requests, byte[] bytes) {
    try {
      Socket socket = new Socket();
      socket.setReceiveBufferSize(RECEIVE_BUFFER);
      synchronized (sockets) {
        sockets.add(socket);
      }
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      OutputStream out = socket.getOutputStream();
      for (int r = 0; r < requests; r++) {
        out.write(bytes);
        written.incrementAndGet();
      }
      out.flush();
    } catch (IOException e) {
      // cut by the service, or closed at the end of the attack
    }
  }

  /** A keep-alive request line and headers for {@code path}, with {@code form} as body or none. */
  static String request(int port, String method, String path, String form) {
    String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n";
    if (form == null) {
      return head + "\r\n";
    }
    return head
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
        + form.getBytes(StandardCharsets.UTF_8).length
        + "\r\n\r\n"
        + form;
  }

  String figure() {
    synchronized (sockets) {
      return sockets.size() + " connections, " + written.get() + " requests written, none read";
    }
  }

  @Override
  public void close() throws InterruptedException {
    synchronized (sockets) {
      for (Socket socket : sockets) {
        try {
          socket.close();
        } catch (IOException e) {
          // gone already
        }
      }
    }
    for (Thread thread : threads) {
      thread.join(10_000);
    }
  }
}
