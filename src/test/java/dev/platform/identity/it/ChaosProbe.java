package dev.platform.identity.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The well-behaved clients during an attack (issue 35): from their own address ({@link
 * BoundHttp#PROBE_ADDRESS}), one thread per call (the key list, a token of its own account,
 * health...), each asking one request at a time on a new connection, pausing its own pace between
 * them, and keeping every answer's time and whether it was the one expected. A thread per call, so
 * one that hangs does not keep the others from being measured.
 */
final class ChaosProbe implements AutoCloseable {
  /**
   * Often enough that a p99 is a percentile: at 100 ms, 12 s of attack gave 137 answers, whose p99
   * was the second slowest of them.
   */
  static final Duration PACE = Duration.ofMillis(25);

  /**
   * Tokens more slowly: 2 a second for the 40 s of the longest attack stay within an account's
   * budget (60, then 1 a second).
   */
  static final Duration TOKEN_PACE = Duration.ofMillis(500);

  /** Generous: a request not answered in this time counts as failed, at this time. */
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** One kind of request the probe makes, the statuses that count as success, its pause. */
  record Call(
      String name,
      java.util.function.Function<BoundHttp, BoundHttp.Exchange> request,
      IntPredicate expected,
      Duration pace) {
    static Call get(String name, String path) {
      return new Call(name, http -> http.get(path, TIMEOUT), status -> status == 200, PACE);
    }

    static Call token(ChaosTarget.Account account) {
      return new Call(
          "token",
          http -> http.postForm("/oauth/token", account.form(), TIMEOUT),
          status -> status == 200,
          TOKEN_PACE);
    }
  }

  private final BoundHttp http;
  private final List<Call> calls;
  private final Map<String, Samples> samples = new LinkedHashMap<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;
  private final long started = System.nanoTime();

  private ChaosProbe(BoundHttp http, List<Call> calls) {
    this.http = http;
    this.calls = calls;
    for (Call call : calls) {
      samples.put(call.name(), new Samples());
      Thread thread = new Thread(() -> run(call), "chaos-probe-" + call.name());
      thread.setDaemon(true);
      threads.add(thread);
    }
  }

  /** Starts probing {@code target} with {@code calls}, each in its own thread. */
  static ChaosProbe start(ChaosTarget target, Call... calls) {
    ChaosProbe probe = new ChaosProbe(target.probeHttp, List.of(calls));
    probe.threads.forEach(Thread::start);
    return probe;
  }

  /** The usual mix: the key list, and tokens of {@code account}. */
  static ChaosProbe keysAndTokens(ChaosTarget target, ChaosTarget.Account account) {
    return start(target, Call.get("key list", "/api/public-keys"), Call.token(account));
  }

  private void run(Call call) {
    while (running) {
      long at = System.nanoTime() - started;
      BoundHttp.Exchange answer = call.request().apply(http);
      boolean ok = answer.answered() && call.expected().test(answer.status());
      synchronized (samples) {
        samples
            .get(call.name())
            .add(
                Duration.ofNanos(at),
                answer.took(),
                ok,
                answer.answered() ? "" + answer.status() : answer.failure());
      }
      try {
        Thread.sleep(call.pace().toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Stops (after the requests in flight) and returns the figures of every call, all merged too. */
  Map<String, Samples> stop() throws InterruptedException {
    running = false;
    for (Thread thread : threads) {
      thread.join(TIMEOUT.toMillis() * 2);
    }
    synchronized (samples) {
      Map<String, Samples> copy = new LinkedHashMap<>(samples);
      Samples all = new Samples();
      samples.values().forEach(all::addAll);
      copy.put("all", all);
      return copy;
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    threads.forEach(Thread::interrupt);
    for (Thread thread : threads) {
      thread.join(TIMEOUT.toMillis() * 2);
    }
  }

  /** The answers to one kind of request: their times, how many succeeded, what the others were. */
  static final class Samples {
    private final List<Long> millis = new ArrayList<>();
    private final List<Long> atMillis = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private int ok;

    /** An answer to a request sent {@code at} after the probe started, that took {@code took}. */
    void add(Duration at, Duration took, boolean success, String what) {
      millis.add(took.toMillis());
      atMillis.add(at.toMillis());
      if (success) {
        ok++;
      } else if (failures.size() < 5) {
        failures.add(what);
      }
    }

    void addAll(Samples other) {
      millis.addAll(other.millis);
      atMillis.addAll(other.atMillis);
      ok += other.ok;
      failures.addAll(other.failures);
    }

    int requests() {
      return millis.size();
    }

    double successRate() {
      return millis.isEmpty() ? 0 : 100.0 * ok / millis.size();
    }

    long percentile(double p) {
      if (millis.isEmpty()) {
        return -1;
      }
      List<Long> sorted = millis.stream().sorted().toList();
      int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
      return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }

    long max() {
      return percentile(100);
    }

    /** When the three slowest requests were sent, after the probe started, for the message. */
    String slowest() {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < millis.size(); i++) {
        order.add(i);
      }
      order.sort((x, y) -> Long.compare(millis.get(y), millis.get(x)));
      StringBuilder text = new StringBuilder();
      for (int i : order.subList(0, Math.min(3, order.size()))) {
        text.append(text.length() == 0 ? "" : ", ")
            .append(millis.get(i))
            .append(" ms at +")
            .append(atMillis.get(i))
            .append(" ms");
      }
      return text.toString();
    }

    /** A few of the failed answers, for the assertion's message. */
    List<String> failures() {
      return failures;
    }

    @Override
    public String toString() {
      return String.format(
          "%d requests, %.1f %% ok, p50 %d ms, p99 %d ms, max %d ms%s",
          requests(),
          successRate(),
          percentile(50),
          percentile(99),
          max(),
          failures.isEmpty() ? "" : ", failures " + failures);
    }
  }
}
