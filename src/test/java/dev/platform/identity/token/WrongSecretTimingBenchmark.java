package dev.platform.identity.token;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Issue 26: does the time of a wrong-secret answer tell whether a client_id exists? Times {@code
 * TokenServlet.issue} with a wrong secret for N known and N unknown client_ids, interleaved in a
 * random order after a warm-up, in process on H2 in memory: what differs between the two lies below
 * the servlet (the read and what is built from it), and HTTP would only add noise that hides it.
 * Prints both medians, their difference and the Mann-Whitney z (|z| above 3: the two differ).
 *
 * <p>Not a test (timings do not belong in {@code mvn verify}): {@code bench/timing.sh} runs it.
 * Arguments: N (200), rounds over every id (20), warm-up requests (50,000).
 */
public final class WrongSecretTimingBenchmark {
  private static final String FORM = "application/x-www-form-urlencoded";

  /** Held here: a logger nobody references may be collected, and its level with it. */
  private static final Logger AUDIT = Logger.getLogger(AuditLog.LOGGER);

  private WrongSecretTimingBenchmark() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 50_000;
    // One audit line per refusal would time the console, not the token path.
    AUDIT.setLevel(Level.OFF);
    Settings settings = TestNodes.settings();
    try (TestNodes.Node node =
        TestNodes.node(
            TestDatabases.h2DataSource("timing-" + UUID.randomUUID()),
            settings,
            Clock.systemUTC())) {
      node.rotation().start();
      run(endpoint(node, settings, n), n, rounds, warmUp);
    }
  }

  private static void run(Endpoint endpoint, int n, int rounds, int warmUp) {
    Random random = new Random(26);
    for (int i = 0; i < warmUp; i++) {
      endpoint.refuse(i % 2 == 0, random.nextInt(n));
    }
    long[] known = new long[n * rounds];
    long[] unknown = new long[n * rounds];
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < 2 * n; i++) {
      order.add(i);
    }
    int k = 0;
    int u = 0;
    for (int round = 0; round < rounds; round++) {
      Collections.shuffle(order, random);
      for (int slot : order) {
        if (slot < n) {
          known[k++] = endpoint.refuse(true, slot);
        } else {
          unknown[u++] = endpoint.refuse(false, slot - n);
        }
      }
    }
    long knownMedian = MannWhitney.median(known);
    long unknownMedian = MannWhitney.median(unknown);
    MannWhitney test = MannWhitney.of(known, unknown);
    System.out.printf(
        "wrong secret, %d known and %d unknown client_ids x %d rounds (%d warm-up requests)%n",
        n, n, rounds, warmUp);
    System.out.printf("median known   %8.1f us%n", knownMedian / 1e3);
    System.out.printf("median unknown %8.1f us%n", unknownMedian / 1e3);
    System.out.printf("difference     %8.1f us%n", (knownMedian - unknownMedian) / 1e3);
    System.out.printf("Mann-Whitney U %.0f, z = %.2f%n", test.u(), test.z());
  }

  private static Endpoint endpoint(TestNodes.Node node, Settings settings, int n) {
    SecretDigest digest = new SecretDigest(settings.secrets().pepper());
    ServiceAccounts accounts = new ServiceAccounts(node.database());
    List<String> known = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      UUID id = UUID.randomUUID();
      accounts.add(
          ServiceAccount.create(
              id,
              new AccountProfile("bench " + i, "org", List.of(), List.of("catalog:*"), "catalog"),
              digest.of("the-right-secret-" + i),
              Clock.systemUTC().instant()));
      known.add(id.toString());
      unknown.add(UUID.randomUUID().toString());
    }
    TokenServlet servlet = TestEndpoints.token(node, settings, Clock.systemUTC(), Optional.empty());
    return new Endpoint(servlet, known, unknown);
  }

  /** The token path with a wrong secret for the i-th known or unknown client_id. */
  private record Endpoint(TokenServlet servlet, List<String> known, List<String> unknown) {
    /** The nanoseconds until the refusal. */
    long refuse(boolean isKnown, int i) {
      String body =
          "grant_type=client_credentials&client_id="
              + (isKnown ? known : unknown).get(i)
              + "&client_secret=a-wrong-secret-of-the-same-length-as-any";
      long start = System.nanoTime();
      try {
        servlet.issue(body, FORM, null, null, "127.0.0.1");
      } catch (OAuthError expected) {
        return System.nanoTime() - start;
      }
      throw new IllegalStateException("a wrong secret was accepted");
    }
  }
}
