package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.client.TokenClient;
import dev.platform.identity.client.TokenClientException;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.verify.StubServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: a backend whose vault hands its {@link TokenClient} a rotated secret moves over at its
 * next renewal, with no restart; after the overlap, the old secret fails. The real token path (the
 * authenticator on H2 and the token servlet) answers over HTTP; one fixed clock, moved by the test,
 * is both the client's and the authenticator's, so hours pass without any sleep.
 */
class SecretMoveTest {
  final Settings settings = TestNodes.settings();
  final TestNodes.Node node =
      TestNodes.node(
          TestDatabases.h2DataSource("move-" + UUID.randomUUID()), settings, Clock.systemUTC());
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final SecretDigest digest = new SecretDigest(settings.secrets().pepper());
  final ServiceAccounts accounts = new ServiceAccounts(node.database());
  final LogCapture audit = LogCapture.of(AuditLog.LOGGER);
  final UUID id = UUID.randomUUID();
  StubServer service;

  @BeforeEach
  void start() throws IOException {
    node.rotation().start();
    accounts.add(
        ServiceAccount.create(
            id,
            new AccountProfile("backend", "org", List.of(), List.of("catalog:*"), "catalog"),
            digest.of("secret-from-january"),
            clock.instant()));
    TokenServlet endpoint =
        TestEndpoints.token(node, settings, clock, Optional.of(Duration.ofDays(90)));
    service =
        StubServer.start(
            "/oauth/token",
            request -> {
              TokenAnswer answer;
              try {
                answer =
                    TokenAnswer.of(
                        endpoint.issue(
                            request.body(),
                            "application/x-www-form-urlencoded",
                            request.authorization(),
                            null,
                            "127.0.0.1"));
              } catch (OAuthError e) {
                answer = TokenAnswer.of(e);
              }
              return new StubServer.Reply(
                  answer.status(),
                  answer.headers(),
                  new String(answer.body(), StandardCharsets.UTF_8));
            });
  }

  @AfterEach
  void stop() {
    service.close();
    audit.close();
    node.close();
  }

  TokenClient.Builder client() {
    return TokenClient.builder()
        .baseUrl(service.uri())
        .clock(clock)
        .sleeper(wait -> {})
        .retries(1, Duration.ofMillis(1), Duration.ofMillis(1));
  }

  /** Which secret each issued token's audit line names, oldest first. */
  List<String> secretsUsed() {
    return audit.messages().stream()
        .filter(line -> line.contains("\"token.issue\""))
        .map(line -> line.replaceAll(".*\"secret\":\"(\\w+)\".*", "$1"))
        .toList();
  }

  @Test
  void
      whenTheVaultHandsOverTheRotatedSecretThenTheNextRenewalUsesItAndTheOldOneEndsWithTheOverlap() {
    AtomicReference<String> vault = new AtomicReference<>("secret-from-january");
    TokenClient backend = client().credentials(id.toString(), vault::get).build();
    backend.token();

    accounts.change(
        id,
        account ->
            account.replaceSecret(
                digest.of("secret-from-march"), Duration.ofDays(2), clock.instant()));
    clock.advance(Duration.ofHours(23).plusMinutes(56));
    backend.token(); // renewed with the old secret, still in its overlap
    vault.set("secret-from-march");
    clock.advance(Duration.ofHours(23).plusMinutes(56));
    backend.token(); // renewed with the new secret: no restart, no new client

    assertEquals(List.of("current", "previous", "current"), secretsUsed());
    assertEquals(3, service.requests());

    clock.advance(Duration.ofDays(1));
    TokenClientException refused =
        assertThrows(
            TokenClientException.class,
            () -> client().credentials(id.toString(), "secret-from-january").build().token());
    assertEquals(401, refused.status());
    assertEquals("invalid_client", refused.error());
    client().credentials(id.toString(), vault::get).build().token();
    assertTrue(secretsUsed().size() == 4 && secretsUsed().get(3).equals("current"));
  }
}
