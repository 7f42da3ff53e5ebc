package dev.platform.identity.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 38: how long a revocation takes to reach a verifier, and the feed filled for the load runs.
 * Not a test: {@code bench/revocation.sh} runs it against two launchers on one database.
 *
 * <p>{@code propagation ISSUER NODE_A NODE_B CLIENT_ID SECRET COUNT SPACING_MS CSV}: takes COUNT
 * tokens from node A, builds a {@link BearerVerifier} whose {@link RevocationFeed} (default 5 s
 * poll) and {@link RemotePublicKeys} read node B, checks every token passes, then revokes them on A
 * one every SPACING_MS (so their phases against the nodes' 1 s refresh and the feed's poll spread)
 * while a watcher verifies each pending token every 5 ms. Prints the time from each revocation's
 * answer, and from its send, to the verifier's first refusal; one CSV row per token.
 *
 * <p>{@code fill NODE CLIENT_ID SECRET COUNT THREADS}: takes COUNT tokens and revokes each through
 * {@code POST /oauth/revoke}, on THREADS threads: the feed then lists COUNT jtis, each a real one.
 */
public final class RevocationBenchmark {
  private static final Duration POLL = RevocationFeed.DEFAULT_REFRESH_INTERVAL;
  private static final long WATCH_MILLIS = 5;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private final String basic;

  private RevocationBenchmark(String clientId, String secret) {
    String pair = form(clientId) + ":" + form(secret); // RFC 6749 §2.3.1: form-encoded first
    this.basic =
        "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  public static void main(String[] args) throws Exception {
    switch (args.length == 0 ? "" : args[0]) {
      case "propagation" ->
          new RevocationBenchmark(args[4], args[5])
              .propagation(
                  args[1],
                  URI.create(args[2]),
                  URI.create(args[3]),
                  Integer.parseInt(args[6]),
                  Long.parseLong(args[7]),
                  Path.of(args[8]));
      case "fill" ->
          fill(
              URI.create(args[1]),
              Files.readAllLines(Path.of(args[2])).stream()
                  .filter(line -> !line.isBlank())
                  .map(line -> line.strip().split("\\s+"))
                  .map(pair -> new RevocationBenchmark(pair[0], pair[1]))
                  .toList(),
              Integer.parseInt(args[3]),
              Integer.parseInt(args[4]));
      default -> {
        System.err.println("usage: propagation ISSUER A B ID SECRET COUNT SPACING_MS CSV");
        System.err.println("       fill NODE CLIENTS_FILE COUNT THREADS");
        System.exit(2);
      }
    }
  }

  /** One revocation: when it was sent, answered and first refused, in System.nanoTime. */
  private static final class Revoked {
    volatile long sent;
    volatile long answered;
    volatile long refused;
  }

  private void propagation(
      String issuer, URI nodeA, URI nodeB, int count, long spacingMillis, Path csv)
      throws Exception {
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tokens.add(token(nodeA));
    }
    try (RevocationFeed feed =
        RevocationFeed.builder()
            .issuer(URI.create(issuer))
            .feedUri(nodeB.resolve("/oauth/revocations"))
            .build()) {
      BearerVerifier verifier =
          BearerVerifier.builder()
              .issuer(issuer)
              .keyLocator(
                  RemotePublicKeys.builder()
                      .issuer(URI.create(issuer))
                      .keySetUri(nodeB.resolve("/api/public-keys"))
                      .build())
              .revocations(feed)
              .build();
      tokens.forEach(token -> verifier.verifyToken(token, List.of())); // each passes, and is cached
      System.out.printf(
          "propagation: %d tokens from %s pass a verifier polling %s every %d s%n",
          count, nodeA, nodeB, POLL.toSeconds());
      Revoked[] revoked = revokeWatched(verifier, nodeA, tokens, spacingMillis);
      report(revoked, csv);
    }
  }

  /** Revokes every token on a schedule while a watcher thread looks for each one's refusal. */
  private Revoked[] revokeWatched(
      BearerVerifier verifier, URI node, List<String> tokens, long spacingMillis) throws Exception {
    Revoked[] revoked = new Revoked[tokens.size()];
    Map<Integer, Revoked> pending = new ConcurrentHashMap<>();
    AtomicInteger unexpected = new AtomicInteger();
    Thread watcher =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                pending.forEach(
                    (i, one) -> {
                      try {
                        verifier.verifyToken(tokens.get(i), List.of());
                      } catch (UnauthenticatedException e) {
                        one.refused = System.nanoTime();
                        pending.remove(i);
                        if (!UnauthenticatedException.REVOKED_TOKEN.equals(e.getMessage())) {
                          unexpected.incrementAndGet();
                        }
                      }
                    });
                try {
                  Thread.sleep(WATCH_MILLIS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "watcher");
    watcher.start();
    long start = System.nanoTime();
    for (int i = 0; i < tokens.size(); i++) {
      long due = start + i * spacingMillis * 1_000_000;
      Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
      Revoked one = new Revoked();
      one.sent = System.nanoTime();
      int status = post(node, "/oauth/revoke", "token=" + form(tokens.get(i))).statusCode();
      one.answered = System.nanoTime();
      if (status != 200) {
        throw new IllegalStateException("revocation " + i + " answered " + status);
      }
      revoked[i] = one;
      pending.put(i, one);
    }
    long deadline = System.nanoTime() + POLL.plusSeconds(15).toNanos();
    while (!pending.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    watcher.interrupt();
    watcher.join();
    if (unexpected.get() > 0) {
      System.out.printf("refusals for another reason than revocation: %d%n", unexpected.get());
    }
    return revoked;
  }

  private static void report(Revoked[] revoked, Path csv) throws IOException {
    List<Long> fromAnswer = new ArrayList<>();
    List<Long> fromSend = new ArrayList<>();
    try (PrintWriter rows = new PrintWriter(Files.newBufferedWriter(csv))) {
      rows.println("index,sent_ms,call_ms,answer_to_refusal_ms,send_to_refusal_ms");
      long origin = revoked[0].sent;
      for (int i = 0; i < revoked.length; i++) {
        Revoked one = revoked[i];
        long refused = one.refused;
        rows.printf(
            "%d,%d,%.1f,%s,%s%n",
            i,
            (one.sent - origin) / 1_000_000,
            (one.answered - one.sent) / 1e6,
            refused == 0 ? "" : String.format("%.1f", (refused - one.answered) / 1e6),
            refused == 0 ? "" : String.format("%.1f", (refused - one.sent) / 1e6));
        if (refused != 0) {
          fromAnswer.add(refused - one.answered);
          fromSend.add(refused - one.sent);
        }
      }
    }
    long target = POLL.plusSeconds(1).toNanos();
    System.out.printf(
        "revocations %d, refused %d, never refused within the poll interval + 15 s %d%n",
        revoked.length, fromAnswer.size(), revoked.length - fromAnswer.size());
    System.out.println("from the revocation's answer: " + percentiles(fromAnswer));
    System.out.println("from the revocation's send:   " + percentiles(fromSend));
    boolean met =
        fromAnswer.size() == revoked.length && percentile(sorted(fromAnswer), 99) <= target;
    System.out.printf(
        "verdict: p99 from the answer %s the target of the poll interval + 1 s (%d ms): %s%n",
        met ? "within" : "beyond", target / 1_000_000, met ? "met" : "missed");
  }

  private static String percentiles(List<Long> nanos) {
    long[] all = sorted(nanos);
    if (all.length == 0) {
      return "none";
    }
    return String.format(
        "count %d p50 %d ms p90 %d ms p99 %d ms max %d ms min %d ms",
        all.length,
        percentile(all, 50) / 1_000_000,
        percentile(all, 90) / 1_000_000,
        percentile(all, 99) / 1_000_000,
        all[all.length - 1] / 1_000_000,
        all[0] / 1_000_000);
  }

  private static long[] sorted(List<Long> values) {
    long[] all = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(all);
    return all;
  }

  /** Nearest rank. */
  private static long percentile(long[] sorted, int p) {
    return sorted.length == 0
        ? Long.MAX_VALUE
        : sorted[Math.max(0, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  /**
   * Revokes {@code count} real tokens, the i-th one of {@code clients.get(i % clients.size())}: a
   * client's revoked jtis in force are capped at {@link
   * dev.platform.identity.revoke.Revocations#LIVE_JTIS_PER_ACCOUNT}, past which its revocations
   * become one cut-off, so the clients must be at least {@code count} / that many.
   */
  private static void fill(URI node, List<RevocationBenchmark> clients, int count, int threads)
      throws Exception {
    int perClient = dev.platform.identity.revoke.Revocations.LIVE_JTIS_PER_ACCOUNT;
    if ((long) clients.size() * perClient < count) {
      throw new IllegalArgumentException(
          count + " revocations need " + (count + perClient - 1) / perClient + " clients");
    }
    long start = System.nanoTime();
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Integer>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(
          pool.submit(
              () -> {
                int revoked = 0;
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                  RevocationBenchmark client = clients.get(i % clients.size());
                  String body = "token=" + form(client.token(node));
                  int status = client.post(node, "/oauth/revoke", body).statusCode();
                  if (status != 200) {
                    throw new IllegalStateException("a revocation answered " + status);
                  }
                  revoked++;
                }
                return revoked;
              }));
    }
    int revoked = 0;
    for (Future<Integer> one : done) {
      revoked += one.get();
    }
    pool.shutdown();
    System.out.printf(
        "fill: %d tokens of %d clients issued and revoked through %s/oauth/revoke on %d threads in"
            + " %.1f s%n",
        revoked, clients.size(), node, threads, (System.nanoTime() - start) / 1e9);
  }

  private String token(URI node) throws IOException, InterruptedException {
    HttpResponse<String> answer = post(node, "/oauth/token", "grant_type=client_credentials");
    if (answer.statusCode() != 200) {
      throw new IllegalStateException("the token endpoint answered " + answer.statusCode());
    }
    return JSON.readTree(answer.body()).get("access_token").asText();
  }

  private HttpResponse<String> post(URI node, String path, String form)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(node.resolve(path))
            .timeout(Duration.ofSeconds(10))
            .header("Authorization", basic)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String form(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
