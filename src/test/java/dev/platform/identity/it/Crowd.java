package dev.platform.identity.it;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Many clients at once from 127.0.0.1 (issue 35): {@code threads} loops, each sending the request
 * {@code next} makes, waiting for its answer, pausing, and again, over kept-alive HTTP/1.1
 * connections; until closed, or until {@code limit} requests in all. Counts the answers by status
 * (0: no answer).
 */
final class Crowd implements AutoCloseable {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
  private final AtomicLong sent = new AtomicLong();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  private Crowd() {}

  static Crowd start(int threads, Duration pause, long limit, Supplier<HttpRequest> next) {
    Crowd crowd = new Crowd();
    for (int i = 0; i < threads; i++) {
      Thread thread =
          new Thread(
              () -> {
                while (crowd.running && crowd.sent.incrementAndGet() <= limit) {
                  crowd.send(next.get());
                  pause(pause);
                }
              },
              "chaos-crowd");
      thread.setDaemon(true);
      crowd.threads.add(thread);
      thread.start();
    }
    return crowd;
  }

  private void send(HttpRequest request) {
    int status;
    try {
      status = CLIENT.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (java.io.IOException e) {
      status = 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
      return;
    }
    statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
  }

  private static void pause(Duration pause) {
    if (pause.isZero()) {
      return;
    }
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The answers so far by status, e.g. {@code {401=300, 429=9700}}. */
  Map<Integer, Integer> statuses() {
    Map<Integer, Integer> copy = new TreeMap<>();
    statuses.forEach((status, count) -> copy.put(status, count.get()));
    return copy;
  }

  long answered() {
    return statuses.values().stream().mapToLong(AtomicInteger::get).sum();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread thread : threads) {
      thread.interrupt();
    }
    for (Thread thread : threads) {
      thread.join(15_000);
    }
  }
}
