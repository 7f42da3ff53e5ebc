package dev.platform.identity.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The attacker's slow clients (issue 35), {@link #MAX} sockets from 127.0.0.1 spread over a group's
 * routes: headers trickled a byte a second, a body trickled a byte a second, a body declared and
 * never sent, or connections that declare a body and hang up to come again at once. A socket the
 * server answers or closes is counted as cut and replaced, so the pressure stays.
 */
final class SlowSockets implements AutoCloseable {
  static final int MAX = 64;
  private static final long TICK_MILLIS = 100;
  private static final long TRICKLE_MILLIS = 1000;
  private static final long RECONNECT_MILLIS = 200;
  private static final int DECLARED = 100_000;

  enum Kind {
    SLOW_HEADERS("slow headers (1 B/s)"),
    SLOW_BODY("slow bodies (1 B/s)"),
    UNSENT_BODY("declared-but-unsent bodies"),
    RECONNECTING("reconnecting (declare, hang up, again)");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  private final int port;
  private final Kind kind;
  private final List<ChaosRoutes.Route> routes;
  private final List<String> headers;
  private final long sliceMillis;
  private int current;
  private final List<Slow> open = new ArrayList<>();
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger cut = new AtomicInteger();
  private final java.util.Map<String, AtomicInteger> answers =
      new java.util.concurrent.ConcurrentSkipListMap<>();
  private final Thread thread = new Thread(this::run, "chaos-slow-sockets");
  private volatile boolean running = true;

  /**
   * {@code headers}: extra lines such as a bearer token, for the authenticated pass. With a {@code
   * slice}, all sockets go to one route at a time, the next route after each slice (an attacker
   * puts everything on the weakest route); without, they are spread over the routes.
   */
  SlowSockets(
      int port,
      Kind kind,
      List<ChaosRoutes.Route> routes,
      List<String> headers,
      java.time.Duration slice) {
    this.port = port;
    this.kind = kind;
    this.routes = routes;
    this.headers = headers;
    this.sliceMillis = slice == null ? 0 : slice.toMillis();
  }

  SlowSockets start() {
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  /** What the attack did: sockets opened, how many the server answered (by status) or closed. */
  String figure() {
    java.util.Map<String, Integer> seen = new java.util.TreeMap<>();
    answers.forEach((answer, count) -> seen.put(answer, count.get()));
    return opened.get()
        + " sockets opened ("
        + MAX
        + " at a time), "
        + cut.get()
        + " cut by the server "
        + seen;
  }

  private void run() {
    long start = System.currentTimeMillis();
    for (int i = 0; i < MAX && running; i++) {
      open.add(open(i));
    }
    while (running) {
      long now = System.currentTimeMillis();
      if (sliceMillis > 0 && (now - start) / sliceMillis % routes.size() != current) {
        current = (int) ((now - start) / sliceMillis % routes.size());
        for (int i = 0; i < open.size(); i++) {
          open.get(i).close();
          open.set(i, open(i));
        }
      }
      for (int i = 0; i < open.size() && running; i++) {
        Slow slow = open.get(i);
        if (!slow.tick(now)) {
          slow.close();
          open.set(i, open(i));
        }
      }
      try {
        Thread.sleep(TICK_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private Slow open(int index) {
    ChaosRoutes.Route route = routes.get(sliceMillis > 0 ? current : index % routes.size());
    opened.incrementAndGet();
    try {
      Socket socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(1);
      Slow slow = new Slow(socket, route, System.currentTimeMillis());
      slow.write(head(route).getBytes(StandardCharsets.ISO_8859_1));
      return slow;
    } catch (IOException e) {
      cut.incrementAndGet();
      return new Slow(null, route, System.currentTimeMillis());
    }
  }

  private String head(ChaosRoutes.Route route) {
    StringBuilder head = new StringBuilder(route.method() + " " + route.path() + " HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    if (kind == Kind.SLOW_HEADERS) {
      return head.append("X-Chaos: ").toString();
    }
    headers.forEach(line -> head.append(line).append("\r\n"));
    head.append("Content-Type: ").append(route.sentType()).append("\r\n");
    head.append("Content-Length: ").append(DECLARED).append("\r\n\r\n");
    return head.toString();
  }

  /** One slow socket; a null socket (the connect failed) is replaced at the next tick. */
  private final class Slow {
    private final Socket socket;
    private final String trickle;
    private final long opened;
    private long lastWrite;
    private int written;

    Slow(Socket socket, ChaosRoutes.Route route, long opened) {
      this.socket = socket;
      this.trickle = kind == Kind.SLOW_BODY ? route.bodyStart() : "";
      this.opened = opened;
      this.lastWrite = opened;
    }

    /** Does this tick's part; false once the server has answered or closed the connection. */
    boolean tick(long now) {
      if (socket == null || answered()) {
        cut.incrementAndGet();
        return false;
      }
      if (kind == Kind.RECONNECTING && now - opened >= RECONNECT_MILLIS) {
        return false;
      }
      boolean trickles = kind == Kind.SLOW_HEADERS || kind == Kind.SLOW_BODY;
      if (trickles && now - lastWrite >= TRICKLE_MILLIS) {
        lastWrite = now;
        char next = written < trickle.length() ? trickle.charAt(written) : 'a';
        written++;
        try {
          write(new byte[] {(byte) next});
        } catch (IOException e) {
          cut.incrementAndGet();
          return false;
        }
      }
      return true;
    }

    void write(byte[] bytes) throws IOException {
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
    }

    /** Whether the server answered (counted by status) or closed the connection. */
    private boolean answered() {
      String answer;
      try {
        InputStream in = socket.getInputStream();
        int first = in.read();
        if (first < 0) {
          answer = "closed";
        } else {
          byte[] line = new byte[12];
          line[0] = (byte) first;
          int read = 1 + in.readNBytes(line, 1, Math.min(11, in.available()));
          String text = new String(line, 0, read, StandardCharsets.ISO_8859_1);
          answer = text.startsWith("HTTP/1.1 ") && read >= 12 ? text.substring(9, 12) : "answer";
        }
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException e) {
        answer = "reset";
      }
      answers.computeIfAbsent(answer, a -> new AtomicInteger()).incrementAndGet();
      return true;
    }

    void close() {
      if (socket != null) {
        try {
          socket.close();
        } catch (IOException e) {
          // gone already
        }
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5_000);
    open.forEach(Slow::close);
  }
}
