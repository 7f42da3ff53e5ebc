package dev.platform.identity.it;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 35, hostile key hosts: private_key_jwt accounts whose {@code jwks_uri} (a local HTTPS
 * server, allowed by {@code identity/allowPrivateJwksUris}) hangs or trickles; 32 clients from
 * 127.0.0.1 send their assertions to the token endpoint, so every request makes the service fetch
 * from the hostile host. Other clients (the probe from 127.0.0.2, with a secret) get their tokens
 * and the key list, p99 under 250 ms.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnabledIfSystemProperty(named = "identity.chaos", matches = "true")
class JwksUriChaosIT {
  static final int ATTACKERS = 32;

  /**
   * One URI each: the service caches a failed fetch per URI for a while, so an attacker registers
   * many accounts, and each makes the service fetch once.
   */
  static final int ACCOUNTS = 32;

  static final Duration ATTACK = Duration.ofSeconds(15);
  static final long P99_MILLIS = 250;

  @TempDir static Path folder;

  JwksServer keys;
  ChaosTarget target;

  @BeforeAll
  void start() throws Exception {
    keys = JwksServer.start(folder);
    Path context = folder.resolve("context.xml");
    Files.writeString(
        context,
        "<Context>\n"
            + ClusterIT.env("identity/allowPrivateJwksUris", "true")
            // Issue 36 item 10: only 443 unless listed; the key host listens on a port of its own.
            + ClusterIT.env("identity/jwksUriPorts", Integer.toString(keys.uri("/").getPort()))
            + "</Context>\n");
    target =
        ChaosTarget.start(
            folder.resolve("data"), context, keys.jvmOptions().toArray(String[]::new));
    target.warmUp();
  }

  @AfterAll
  void stop() throws InterruptedException {
    try {
      if (target != null) {
        target.close();
      }
    } finally {
      if (keys != null) {
        keys.close();
      }
    }
    System.out.println("chaos report so far:\n" + ChaosReport.table());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hang", "trickle"})
  void whenKeyHostsStallThenOtherClientsGetTheirTokensInTime(String behaviour) throws Exception {
    ClientKeyPair key = ClientKeyPair.ec("chaos");
    List<String> accounts = new ArrayList<>();
    for (int i = 0; i < ACCOUNTS; i++) {
      accounts.add(
          target
              .accountFrom(
                  "{\"name\":\"chaos-"
                      + behaviour
                      + i
                      + "\",\"organization_id\":\"org-chaos\",\"scopes\":[\"catalog:*\"],"
                      + "\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks_uri\":\""
                      + keys.uri("/" + behaviour + "/" + i)
                      + "\"}")
              .clientId());
    }
    ChaosTarget.Account probeAccount = target.account("chaos-probe");
    String endpoint = "http://127.0.0.1:" + target.port() + "/oauth/token";
    AtomicInteger turn = new AtomicInteger();
    int before = keys.requests();
    ChaosProbe.Samples figures;
    String crowdFigure;
    try (Crowd crowd =
        Crowd.start(
            ATTACKERS,
            Duration.ZERO,
            Long.MAX_VALUE,
            () ->
                HttpRequest.newBuilder(URI.create(endpoint))
                    .timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            ClientKeyPair.form(
                                key.assertion(
                                    accounts.get(turn.incrementAndGet() % ACCOUNTS),
                                    "http://127.0.0.1:" + target.port() + "/oauth/token"))))
                    .build())) {
      Thread.sleep(1000);
      try (ChaosProbe probe = ChaosProbe.keysAndTokens(target, probeAccount)) {
        Thread.sleep(ATTACK.toMillis());
        figures = probe.stop().get("all");
      }
      crowdFigure = ATTACKERS + " clients, answers " + crowd.statuses();
    }
    boolean recovered = target.awaitAnswering();
    ChaosReport.row(behaviour.equals("hang") ? "hanging jwks_uri" : "trickling jwks_uri", "token")
        .probe(figures)
        .figure(
            crowdFigure
                + ", "
                + ACCOUNTS
                + " accounts, "
                + (keys.requests() - before)
                + " fetches reached the key host")
        .probeHolds(P99_MILLIS)
        .check(recovered, "answers afterwards", "no answer to /health/live within 10 s")
        .record();
  }
}
