package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.client.TokenClient;
import dev.platform.identity.client.TokenClientException;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 19 §4: a fleet sees nothing of a credential rotation. Two launcher nodes share one database
 * (on each server the build was given: PostgreSQL, MariaDB) behind a loopback front that drains a
 * node before it restarts, as a load balancer does. Eight {@link TokenClient} threads per node
 * fetch a fresh token again and again (each drops its token after use, forcing the next fetch) and
 * verify each token with {@link BearerVerifier} against both nodes' key lists. Meanwhile the
 * fleet's secret is rotated with a one-minute overlap and the fleet moves over through its {@code
 * Supplier}; then the key-encryption key and the pepper are each rotated by the README's two-phase
 * procedure, side by side, with a rolling restart of both nodes at every phase. No token request
 * and no verification may fail; the only refusals are the ones the test provokes: the old secret
 * once its overlap has ended.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class FleetIT {
  static final int THREADS_PER_NODE = 8;

  /**
   * Between two fetches of one thread: a fleet's steady load that leaves the 2 cores room. At 40 ms
   * the fleet kept both cores busy, and a node restarting beside it once took over 90 s to listen
   * (a CI-clone run): the test then measured the machine, not the rotation.
   */
  static final Duration PACE = Duration.ofMillis(100);

  static final String KEK_1 = ProductionServer.KEK;
  static final String PEPPER_1 = ProductionServer.PEPPER;

  @Parameter DatabaseServer server;
  @TempDir Path folder;
  FreshDatabase database;
  FailoverFront front;
  final List<Node> nodes = new ArrayList<>();
  final AtomicReference<String> vault = new AtomicReference<>();
  Fleet fleet;
  String adminId;
  String adminSecret;
  int restarts;

  /** One launcher on a fixed loopback port, restarted there with other settings. */
  final class Node {
    final int index;
    final int port;
    final Http direct;
    LauncherIT.Launched launched;

    Node(int index) throws Exception {
      this.index = index;
      this.port = LauncherIT.freePort();
      this.direct = new Http(new URL("http://127.0.0.1:" + port + "/"));
    }

    void start(Path context) throws Exception {
      launched =
          new LauncherIT.Launched(
              port,
              "--data",
              folder.resolve("node-" + index).toString(),
              "--context",
              context.toString());
      assertTrue(launched.awaitListening(), launched.output());
      assertTrue(
          eventually(Duration.ofSeconds(60), () -> ready(direct)),
          "node " + index + " is not ready:\n" + launched.output());
    }

    /** Drained first, so the fleet's new connections go to the other node meanwhile. */
    void restart(Path context) throws Exception {
      front.drain(index);
      launched.close();
      start(context);
      front.restore(index);
      restarts++;
    }
  }

  @AfterEach
  void stop() throws Exception {
    if (fleet != null) {
      fleet.close();
    }
    for (Node node : nodes) {
      if (node.launched != null) {
        node.launched.close();
      }
    }
    if (front != null) {
      front.close();
    }
    if (database != null) {
      database.close();
    }
  }

  @Test
  void whenTheSecretTheKeyEncryptionKeyAndThePepperAreRotatedUnderLoadThenTheFleetSeesNothing()
      throws Exception {
    String kek2 = randomKey();
    String pepper2 = randomKey();
    database = server.create("identity_fleet");
    Path initial = context("initial", KEK_1, "", PEPPER_1, "");
    for (int i = 0; i < 2; i++) {
      nodes.add(new Node(i));
    }
    nodes.get(0).start(initial);
    nodes.get(1).start(initial);
    front = new FailoverFront(nodes.stream().map(node -> node.port).toList());
    Http entry = new Http(new URL("http://127.0.0.1:" + front.port(0) + "/"));
    readBootstrapAdministrator(nodes.get(0).launched.output());
    String signingKid = currentKid(entry);

    String[] account = createFleetAccount(entry);
    vault.set(account[1]);
    fleet = new Fleet(account[0]);
    Instant started = Instant.now();
    fleet.awaitTokens(200);

    // 1. The secret: a one-minute overlap, and the fleet moves over through its Supplier.
    HttpResponse<String> rotated =
        entry.admin(
            "POST",
            "/service-accounts/" + account[0] + "/secret",
            adminToken(entry),
            "{\"previous_secret_valid_for\":\"PT1M\"}");
    assertEquals(200, rotated.statusCode(), rotated.body());
    String oldSecret = account[1];
    String newSecret = Http.json(rotated).get("client_secret").asText();
    Instant overlapEnds =
        Instant.parse(Http.json(rotated).get("previous_secret_expires_at").asText());
    long before = fleet.tokens.get();
    fleet.awaitTokens(before + 100); // still on the old secret, within its overlap
    vault.set(newSecret);
    fleet.awaitTokens(fleet.tokens.get() + 100);

    // 2. The key-encryption key and the pepper, each by its two phases and a clean-up, the two
    // rotations side by side: one rolling restart a phase (six restarts of each node took most of
    // this test's time, and an operator may well rotate both in one window). Phase 1: every node
    // reads the new ones; phase 2: every node writes with them, each key sealed anew and each
    // successful authentication moving its digest over; phase 3: the old ones are gone.
    restartAll(context("phase-1", KEK_1, kek2, PEPPER_1, pepper2));
    restartAll(context("phase-2", kek2, KEK_1, pepper2, PEPPER_1));
    assertTrue(
        eventually(
            Duration.ofSeconds(60),
            () -> nodes.stream().allMatch(node -> keysUnderPreviousKek(node.direct) == 0)),
        "every key sealed anew under the new key-encryption key");
    assertTrue(
        eventually(
            Duration.between(Instant.now(), overlapEnds).plusSeconds(60),
            () -> accountsOnPreviousPeppers(entry) == 0),
        "every account's digests moved to the new pepper");
    restartAll(context("phase-3", kek2, "", pepper2, ""));
    assertEquals(signingKid, currentKid(entry), "the rotation re-encrypts; it never re-keys");
    fleet.awaitTokens(fleet.tokens.get() + 100);

    // 3. The provoked refusals: the old secret once its overlap has ended, on each node.
    assertTrue(
        eventually(
            Duration.between(Instant.now(), overlapEnds).plusSeconds(30),
            () -> Instant.now().isAfter(overlapEnds)));
    int provoked = 0;
    for (Node node : nodes) {
      HttpResponse<String> refused = node.direct.tokenResponse(account[0], oldSecret);
      assertEquals(401, refused.statusCode(), refused.body());
      assertTrue(refused.body().contains("invalid_client"), refused.body());
      provoked++;
    }
    fleet.close();
    System.out.printf(
        "FleetIT: %d threads, %s: %d tokens issued, %d token requests failed; %d verifications,"
            + " %d failed; %d refusals provoked (old secret after its overlap); %d rolling"
            + " restarts%n",
        2 * THREADS_PER_NODE,
        Duration.between(started, Instant.now()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
        fleet.tokens.get(),
        fleet.failedTokens.get(),
        fleet.verified.get(),
        fleet.failedVerifications.get(),
        provoked,
        restarts);
    assertEquals(0, fleet.failedTokens.get(), fleet.failures());
    assertEquals(0, fleet.failedVerifications.get(), fleet.failures());
    assertEquals(2, provoked);
    for (Node node : nodes) {
      assertEquals(0, keysUnderPreviousKek(node.direct));
    }
    assertEquals(signingKid, currentKid(entry));
  }

  private void restartAll(Path context) throws Exception {
    for (Node node : nodes) {
      node.restart(context);
      fleet.awaitTokens(fleet.tokens.get() + 50); // the fleet is served between the restarts
    }
    System.out.printf(
        "FleetIT: after %s: %d tokens (%d failed), %d verifications (%d failed)%n",
        context.getFileName(),
        fleet.tokens.get(),
        fleet.failedTokens.get(),
        fleet.verified.get(),
        fleet.failedVerifications.get());
  }

  /**
   * The fleet: {@code THREADS_PER_NODE} threads per node front, each with its own {@link
   * TokenClient} whose secret comes from the vault, counting what succeeds and what fails.
   */
  final class Fleet implements AutoCloseable {
    final AtomicLong tokens = new AtomicLong();
    final AtomicLong failedTokens = new AtomicLong();
    final AtomicLong verified = new AtomicLong();
    final AtomicLong failedVerifications = new AtomicLong();
    final List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    final AtomicBoolean stopped = new AtomicBoolean();
    final List<Thread> threads = new ArrayList<>();

    Fleet(String clientId) {
      List<BearerVerifier> verifiers = new ArrayList<>();
      for (int i = 0; i < nodes.size(); i++) {
        verifiers.add(
            BearerVerifier.builder()
                .issuer("http://127.0.0.1")
                .keyLocator(
                    RemotePublicKeys.builder().keySetUri(frontUri(i, "/api/public-keys")).build())
                .build());
      }
      for (int i = 0; i < nodes.size(); i++) {
        for (int t = 0; t < THREADS_PER_NODE; t++) {
          TokenClient client =
              TokenClient.builder()
                  .baseUrl(frontUri(i, "/"))
                  .credentials(clientId, vault::get)
                  .retries(8, Duration.ofMillis(100), Duration.ofSeconds(2))
                  .requestTimeout(Duration.ofSeconds(10))
                  .build();
          Thread thread = new Thread(() -> run(client, verifiers), "fleet-" + i + "-" + t);
          thread.setDaemon(true);
          threads.add(thread);
          thread.start();
        }
      }
    }

    private void run(TokenClient client, List<BearerVerifier> verifiers) {
      while (!stopped.get()) {
        String token;
        try {
          token = client.token();
          tokens.incrementAndGet();
        } catch (TokenClientException e) {
          failedTokens.incrementAndGet();
          note("token: " + e.getMessage());
          continue;
        }
        for (BearerVerifier verifier : verifiers) {
          try {
            verifier.verify("Bearer " + token, List.of());
            verified.incrementAndGet();
          } catch (RuntimeException e) {
            failedVerifications.incrementAndGet();
            note("verification: " + e);
          }
        }
        client.reportUnauthorized(token); // the next call fetches a fresh token
        LockSupport.parkNanos(PACE.toNanos());
      }
    }

    private void note(String failure) {
      if (failures.size() < 20) {
        failures.add(Instant.now() + " " + failure);
      }
    }

    String failures() {
      return String.join("\n", failures);
    }

    /** Waits until the fleet has been issued {@code count} tokens in all. */
    void awaitTokens(long count) {
      assertTrue(
          eventually(Duration.ofSeconds(60), () -> tokens.get() >= count),
          "the fleet got " + tokens.get() + " tokens, not " + count + "; " + failures());
    }

    @Override
    public void close() throws InterruptedException {
      stopped.set(true);
      for (Thread thread : threads) {
        thread.join(TimeUnit.SECONDS.toMillis(30));
      }
    }
  }

  private URI frontUri(int node, String path) {
    return URI.create("http://127.0.0.1:" + front.port(node) + path);
  }

  private Path context(
      String name, String kek, String previousKeks, String pepper, String previousPeppers)
      throws Exception {
    String xml =
        ClusterIT.contextXml(database)
            .replace(KEK_1, kek)
            .replace(PEPPER_1, pepper)
            .replace(
                "</Context>",
                ClusterIT.env("identity/previousKeyEncryptionKeys", previousKeks)
                    + ClusterIT.env("identity/previousSecretPeppers", previousPeppers)
                    + ClusterIT.env("identity/tokenRateLimit", "1000000")
                    // The fleet's load comes from one address, as the benchmark's does (issue 35).
                    + ClusterIT.env("identity/requestThreadsPerAddress", "10000")
                    // Its load keeps every request thread on the database: the bulkhead (issue
                    // 35) would refuse the administrator's calls between them, which is not what
                    // this test measures; so as many permits as threads, and a pool to match.
                    + ClusterIT.env("identity/databaseConcurrency", "12")
                    + "</Context>")
            .replace("maxTotal=\"10\"", "maxTotal=\"16\"");
    Path file = folder.resolve(name + ".xml");
    Files.writeString(file, xml);
    return file;
  }

  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private void readBootstrapAdministrator(String output) {
    Matcher secret = ClusterIT.SECRET.matcher(output);
    Matcher id = ClusterIT.CLIENT_ID.matcher(output);
    assertTrue(secret.find() && id.find(), output);
    adminSecret = secret.group(1);
    adminId = id.group(1);
  }

  private String adminToken(Http node) {
    return node.token(adminId, adminSecret);
  }

  private String[] createFleetAccount(Http node) {
    HttpResponse<String> created =
        node.admin(
            "POST",
            "/service-accounts",
            adminToken(node),
            "{\"name\":\"fleet\",\"organization_id\":\"org-f\",\"scopes\":[\"catalog:*\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new String[] {body.get("client_id").asText(), body.get("client_secret").asText()};
  }

  private static String currentKid(Http node) {
    return Http.json(node.get("/api/public-keys")).get("keys").get(0).get("kid").asText();
  }

  private static boolean ready(Http node) {
    try {
      return node.get("/health/ready").statusCode() == 200;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static int keysUnderPreviousKek(Http node) {
    JsonNode health = Http.json(node.get("/health/ready"));
    return health.path("signing_keys_under_previous_key_encryption_keys").asInt(-1);
  }

  private int accountsOnPreviousPeppers(Http node) {
    HttpResponse<String> peppers = node.admin("GET", "/secret-peppers", adminToken(node), null);
    assertEquals(200, peppers.statusCode(), peppers.body());
    return Http.json(peppers).get("accounts_on_previous_peppers").asInt();
  }

  /** Polls {@code condition} until it holds or {@code limit} has passed. */
  private static boolean eventually(Duration limit, BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(limit);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        return false;
      }
      LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
    }
    return true;
  }
}
