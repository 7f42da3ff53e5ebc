package dev.platform.identity.token;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.RsaProvider;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ScopeCatalog;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Issue 20: what the metrics cost the token path. Issues tokens in process on H2 in memory through
 * {@code TokenServlet.answer} and the servlet's latency timer, as {@code service} does minus HTTP,
 * with the meters on a {@link PrometheusMeterRegistry} (as Startup wires them) and with {@link
 * TokenMeters#none()} (meters that record nothing), in alternating rounds after a warm-up of each;
 * prints each configuration's median round time per token and the difference.
 *
 * <p>Not a test (timings do not belong in {@code mvn verify}): {@code bench/run.sh} runs it, as it
 * runs {@code SigningBenchmark}. Arguments: tokens per round (2,000), rounds (10), warm-up (5,000).
 */
public final class MetricsOverheadBenchmark {
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final Logger AUDIT = Logger.getLogger(AuditLog.LOGGER);

  private MetricsOverheadBenchmark() {}

  public static void main(String[] args) {
    int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 5_000;
    AUDIT.setLevel(Level.OFF);
    Settings settings = TestNodes.settings();
    try (TestNodes.Node node =
        TestNodes.node(
            TestDatabases.h2DataSource("metrics-bench-" + UUID.randomUUID()),
            settings,
            Clock.systemUTC())) {
      node.rotation().start();
      String body = account(node, settings);
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      Path on = new Path(endpoint(node, settings, new TokenMeters(registry)));
      Path off = new Path(endpoint(node, settings, TokenMeters.none()));
      on.run(body, warmUp);
      off.run(body, warmUp);
      long[] withMetrics = new long[rounds];
      long[] without = new long[rounds];
      for (int round = 0; round < rounds; round++) {
        if (round % 2 == 0) {
          withMetrics[round] = on.run(body, perRound);
          without[round] = off.run(body, perRound);
        } else {
          without[round] = off.run(body, perRound);
          withMetrics[round] = on.run(body, perRound);
        }
      }
      double onMicros = median(withMetrics) / 1e3 / perRound;
      double offMicros = median(without) / 1e3 / perRound;
      System.out.printf(
          "token path, %d rounds of %d tokens (%d warm-up each), %s%n",
          rounds, perRound, warmUp, RsaProvider.choose(settings.keys().engine()).name());
      System.out.printf("metrics on  %8.1f us per token%n", onMicros);
      System.out.printf("metrics off %8.1f us per token%n", offMicros);
      System.out.printf("difference  %+8.2f %%%n", 100 * (onMicros - offMicros) / offMicros);
      System.out.println(
          "issued counted: "
              + registry.get("identity.token.requests").tag("outcome", "issued").counter().count());
    }
  }

  private static String account(TestNodes.Node node, Settings settings) {
    UUID id = UUID.randomUUID();
    new ServiceAccounts(node.database())
        .add(
            ServiceAccount.create(
                id,
                new AccountProfile("bench", "org", List.of(), List.of("catalog:*"), "catalog"),
                new SecretDigest(settings.secrets().pepper()).of("the-bench-secret-0123456789"),
                Clock.systemUTC().instant()));
    return "grant_type=client_credentials&client_id="
        + id
        + "&client_secret=the-bench-secret-0123456789";
  }

  private static TokenServlet endpoint(TestNodes.Node node, Settings settings, TokenMeters meters) {
    SecretDigest digest = new SecretDigest(settings.secrets().pepper());
    ScopeCatalog scopes = new ScopeCatalog(node.database());
    scopes.refresh();
    return TokenEndpoint.build(
        TestEndpoints.policy(settings, settings.accounts().secretRotation().maxAge()),
        new ServiceAccounts(node.database()),
        digest,
        scopes,
        node.ring(),
        new UsedJtis(node.database().dataSource()),
        TestEndpoints.NONE_PUBLISHED,
        new AuditLog(Clock.systemUTC()),
        meters,
        Clock.systemUTC());
  }

  /** One configuration of the token path. */
  private record Path(TokenServlet servlet) {
    /** Issues {@code n} tokens; the nanoseconds it took. */
    long run(String body, int n) {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        long one = System.nanoTime();
        TokenAnswer answer = servlet.answer(body, FORM, null, null, "127.0.0.1");
        servlet.meters().answered(one);
        if (answer.status() != 200) {
          throw new IllegalStateException("not issued: " + new String(answer.body()));
        }
      }
      return System.nanoTime() - start;
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
  }
}
