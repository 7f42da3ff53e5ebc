package dev.platform.identity.verify;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A stub HTTP server on 127.0.0.1 answering one path with whole replies; it counts the requests and
 * can hold them until the test releases them, after the test has seen one arrive. {@link
 * StallingServer} is the raw-socket stub for replies that stop mid-body.
 */
public final class StubServer implements AutoCloseable {
  /**
   * What arrived: its number (from 1), its {@code Authorization} and {@code If-None-Match} headers
   * or null, its body.
   */
  public record Request(int number, String authorization, String body, String ifNoneMatch) {}

  /** What to answer: a status, extra headers and a body. */
  public record Reply(int status, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger requests = new AtomicInteger();
  private volatile CountDownLatch hold = new CountDownLatch(0);
  private volatile CountDownLatch arrived = new CountDownLatch(0);

  private StubServer(String path, Function<Request, Reply> replies) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(threads);
    server.createContext(
        path,
        exchange -> {
          Request request =
              new Request(
                  requests.incrementAndGet(),
                  exchange.getRequestHeaders().getFirst("Authorization"),
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                  exchange.getRequestHeaders().getFirst("If-None-Match"));
          arrived.countDown();
          try {
            hold.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          Reply reply = replies.apply(request);
          reply.headers().forEach(exchange.getResponseHeaders()::add);
          byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
          // No body at all for a 304, which HttpServer marks by -1.
          exchange.sendResponseHeaders(reply.status(), reply.status() == 304 ? -1 : body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  /** Serves {@code path}, each request answered by {@code replies} (called on a server thread). */
  public static StubServer start(String path, Function<Request, Reply> replies) throws IOException {
    return new StubServer(path, replies);
  }

  /** {@code http://127.0.0.1:port}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The requests that have arrived so far. */
  public int requests() {
    return requests.get();
  }

  /** From now on, requests wait at the stub (ten seconds at most) until {@link #release}. */
  public void hold() {
    arrived = new CountDownLatch(1);
    hold = new CountDownLatch(1);
  }

  /** Whether a request arrived, since {@link #hold}, within {@code timeout}. */
  public boolean awaitArrival(Duration timeout) throws InterruptedException {
    return arrived.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Lets the held requests, and those to come, be answered. */
  public void release() {
    hold.countDown();
  }

  @Override
  public void close() {
    release();
    server.stop(0);
    threads.shutdownNow();
  }
}
