package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.PepperCheck;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.TestSettings;
import dev.platform.identity.db.CountingDataSource;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.key.TestNodes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19 §3 on the token path: a node whose pepper was rotated (new pepper current, old one
 * previous) still authenticates digests under the old pepper, and moves each to the new pepper in
 * one UPDATE on its first success; a wrong secret or an unknown pepper never writes.
 */
class SecretPepperTokenTest {
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final String NEW_PEPPER = "bmV3LXBlcHBlci1mb3ItdGhlLXJvdGF0aW9uLXRlc3Qh";
  static final String STRANGE_PEPPER = "YS1wZXBwZXItbm8tbm9kZS1vZi10aGlzLXRlc3QtaGFzIQ==";

  final Settings oldSettings = TestSettings.with(Map.of());
  final Settings settings =
      TestSettings.with(
          Map.of(
              JndiSettings.SECRET_PEPPER,
              NEW_PEPPER,
              JndiSettings.PREVIOUS_SECRET_PEPPERS,
              TestSettings.PEPPER));
  final CountingDataSource counting =
      new CountingDataSource(TestDatabases.h2DataSource("pepper-" + UUID.randomUUID()));
  final TestNodes.Node node = TestNodes.node(counting.dataSource(), settings, Clock.systemUTC());
  final MutableClock clock = new MutableClock(START);
  final SecretDigest oldDigest = new SecretDigest(oldSettings.secrets().pepper());
  final SecretDigest digest =
      new SecretDigest(settings.secrets().pepper(), settings.secrets().previousPeppers());
  final ServiceAccounts accounts = new ServiceAccounts(node.database());
  final TokenServlet endpoint = TestEndpoints.token(node, settings, clock, Optional.empty());

  @BeforeEach
  void startKeys() {
    node.rotation().start();
    // This node started: the pepper check row is under its current pepper, so moves go there.
    new PepperCheck(node.database().dataSource()).verify(digest);
  }

  @AfterEach
  void close() {
    node.close();
  }

  UUID account(SecretDigest.Digest stored) {
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            id,
            new AccountProfile("reader", "org", List.of(), List.of("catalog:*"), "catalog"),
            stored,
            clock.instant()));
    return id;
  }

  TokenResponseBody issue(UUID id, String secret) {
    String body = "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret;
    return endpoint.issue(body, "application/x-www-form-urlencoded", null, null, "127.0.0.1");
  }

  OAuthError refused(UUID id, String secret) {
    return assertThrows(OAuthError.class, () -> issue(id, secret));
  }

  ServiceAccount.Secrets secrets(UUID id) {
    return accounts.find(id).orElseThrow().secrets();
  }

  List<String> writes() {
    return counting.statements().stream()
        .filter(sql -> !sql.trim().toLowerCase().startsWith("select"))
        .toList();
  }

  @Test
  void whenADigestIsUnderThePreviousPepperThenItAuthenticatesAndIsMovedInOneUpdate() {
    UUID id = account(oldDigest.of("old-pepper-secret"));
    counting.reset();

    List<String> audited;
    try (dev.platform.identity.audit.LogCapture audit =
        dev.platform.identity.audit.LogCapture.of(dev.platform.identity.audit.AuditLog.LOGGER)) {
      assertEquals("catalog:*", issue(id, "old-pepper-secret").scope());
      audited = audit.messages();
    }

    assertTrue(
        audited.stream()
            .anyMatch(
                line ->
                    line.contains("\"token.issue\"")
                        && line.contains("\"pepper_moved_from\":\"" + oldDigest.currentPepperId())),
        "the audit line says the digest moved, and from which pepper: " + audited);
    List<String> statements = counting.statements();
    assertEquals(2, statements.size(), statements.toString());
    assertEquals(1, writes().size(), statements.toString());
    assertTrue(writes().get(0).toLowerCase().startsWith("update service_account"), writes().get(0));
    assertEquals(digest.of("old-pepper-secret"), secrets(id).current());
    assertEquals(digest.currentPepperId(), secrets(id).current().pepperId());

    counting.reset();
    issue(id, "old-pepper-secret");
    assertEquals(1, counting.statements().size(), "once moved, one read again");
  }

  @Test
  void whenTheSecretIsWrongThenNothingIsWritten() {
    UUID id = account(oldDigest.of("old-pepper-secret"));
    counting.reset();

    OAuthError refusal = refused(id, "not-the-secret");

    assertEquals(401, refusal.status());
    assertEquals(ClientAuthenticator.FAILED, refusal.description());
    assertEquals(List.of(), writes());
    assertEquals(oldDigest.of("old-pepper-secret"), secrets(id).current());
  }

  @Test
  void whenADigestNamesAPepperThisNodeDoesNotHaveThenRefusedAsAWrongSecretAndNotWritten() {
    SecretDigest strange =
        new SecretDigest(
            TestSettings.with(Map.of(JndiSettings.SECRET_PEPPER, STRANGE_PEPPER))
                .secrets()
                .pepper());
    UUID id = account(strange.of("strange-secret"));
    counting.reset();

    OAuthError refusal = refused(id, "strange-secret");

    assertEquals(401, refusal.status());
    assertEquals(ClientAuthenticator.FAILED, refusal.description());
    assertEquals(List.of(), writes());
    assertEquals(strange.of("strange-secret"), secrets(id).current());
  }

  @Test
  void whenAnOverlapSpansThePepperRotationThenBothSecretsAuthenticate() {
    UUID id = account(oldDigest.of("old-secret"));
    accounts.change(
        id, it -> it.replaceSecret(digest.of("new-secret"), Duration.ofHours(24), clock.instant()));
    counting.reset();

    issue(id, "new-secret");
    assertEquals(List.of(), writes(), "the current digest is under the current pepper already");
    issue(id, "old-secret");

    assertEquals(1, writes().size(), writes().toString());
    ServiceAccount.Secrets secrets = secrets(id);
    assertEquals(digest.of("new-secret"), secrets.current());
    assertEquals(digest.of("old-secret"), secrets.previous());
    assertEquals(Optional.of(digest.of("old-secret")), secrets.previousAt(clock.instant()));
    issue(id, "old-secret");
    issue(id, "new-secret");
  }

  @Test
  void whenTheAccountIsDeactivatedThenItsProvenSecretIsStillMovedButRefusedAsRevoked() {
    UUID id = account(oldDigest.of("old-pepper-secret"));
    accounts.change(id, it -> it.deactivate(clock.instant()));

    assertEquals(ClientAuthenticator.REVOKED, refused(id, "old-pepper-secret").description());

    assertEquals(digest.of("old-pepper-secret"), secrets(id).current());
  }

  @Test
  void whenTheMoveFailsThenTheTokenIsIssuedAllTheSameAndAWarningLogged() throws Exception {
    UUID id = account(oldDigest.of("old-pepper-secret"));
    try (var connection = counting.dataSource().getConnection();
        var statement = connection.createStatement();
        LogCapture log = LogCapture.of(ClientAuthenticator.class.getName())) {
      // A constraint that refuses the move: the UPDATE fails, the request must not.
      statement.execute(
          "alter table service_account add constraint no_moves check"
              + " (secret_pepper_id <> '"
              + digest.currentPepperId()
              + "')");

      assertEquals("catalog:*", issue(id, "old-pepper-secret").scope());

      assertEquals(1, log.messages().size(), log.messages().toString());
      assertTrue(log.messages().get(0).contains(id.toString()), log.messages().get(0));
      assertTrue(log.messages().stream().noneMatch(line -> line.contains("old-pepper-secret")));
      String moved = digest.of("old-pepper-secret").value();
      String stored = oldDigest.of("old-pepper-secret").value();
      assertTrue(
          log.messages().stream().noneMatch(line -> line.contains(moved) || line.contains(stored)),
          log.messages().toString());
    }
    assertEquals(oldDigest.of("old-pepper-secret"), secrets(id).current());
  }

  @Test
  void whenTheClientIsUnknownThenRefusedWithTheGenericTextAndNothingWritten() {
    counting.reset();

    OAuthError refusal = refused(UUID.randomUUID(), "any-secret");

    assertEquals(401, refusal.status());
    assertEquals(ClientAuthenticator.FAILED, refusal.description());
    assertEquals(1, counting.statements().size());
  }

  // The first attacker review of the pepper rotation (issue 19 §3), its attacks kept.

  static TokenRequest request(UUID id, String secret) {
    return TokenRequest.from(
        "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret,
        "application/x-www-form-urlencoded",
        null,
        null);
  }

  /**
   * A token request proved the current secret under the old pepper, then an administrator rotated
   * the secret before its UPDATE ran: the stale compare-and-set must neither bring the old secret
   * back as current nor overwrite the new one.
   */
  @Test
  void whenTheSecretIsRotatedBetweenTheProofAndTheMoveThenTheStaleMoveChangesNothing() {
    UUID id = account(oldDigest.of("january"));
    SecretDigest.Digest proven = accounts.find(id).orElseThrow().secrets().current();

    accounts.change(
        id, it -> it.replaceSecret(digest.of("march"), Duration.ofHours(1), clock.instant()));
    ServiceAccount.Secrets rotated = accounts.find(id).orElseThrow().secrets();

    assertFalse(
        accounts.redigest(
            id, SecretDigest.Match.CURRENT, proven, digest.of("january"), digest.checkValue()),
        "the stale move of the current column must fail its compare-and-set");
    assertEquals(rotated, accounts.find(id).orElseThrow().secrets(), "nothing changed");
    assertTrue(digest.matches("march", accounts.find(id).orElseThrow().secrets().current()));

    // Rotated again without an overlap: a stale move of the previous column finds null there.
    accounts.change(id, it -> it.replaceSecret(digest.of("april"), clock.instant()));
    assertFalse(
        accounts.redigest(
            id, SecretDigest.Match.PREVIOUS, proven, digest.of("january"), digest.checkValue()),
        "a stale move must not resurrect a previous secret the rotation ended");
    assertEquals(null, accounts.find(id).orElseThrow().secrets().previous());
  }

  /**
   * The review found (low) that two nodes whose current peppers differ, each holding the other's as
   * previous (the middle of a rolling change of the current pepper, or a node left behind), moved
   * the same client's digest back and forth, a write per successful token request. Moves now go
   * only toward the pepper the check row is under, which the first node with the new pepper current
   * moved there: the node behind moves nothing back.
   */
  @Test
  void whenTwoNodesDisagreeOnTheCurrentPepperThenTheDigestMovesOnceAndStays() {
    SecretDigest behind =
        new SecretDigest(oldSettings.secrets().pepper(), List.of(settings.secrets().pepper()));
    ClientAuthenticator nodeA =
        TestEndpoints.authenticator(node, settings, accounts, digest, clock);
    ClientAuthenticator nodeB =
        TestEndpoints.authenticator(node, settings, accounts, behind, clock);
    UUID id = account(oldDigest.of("secret"));

    List<String> peppers = new ArrayList<>();
    List<Optional<String>> moved = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      moved.add((i % 2 == 0 ? nodeA : nodeB).authenticate(request(id, "secret")).pepperMovedFrom());
      peppers.add(accounts.find(id).orElseThrow().secrets().current().pepperId());
    }

    assertEquals(List.of(digest.currentPepperId()), peppers.stream().distinct().toList(), "once");
    assertEquals(
        List.of(Optional.of(oldDigest.currentPepperId())),
        moved.stream().filter(Optional::isPresent).toList(),
        "one move, by the node whose current pepper the check row is under: " + moved);
  }

  /**
   * Finding (low, timing): an account whose current digest is under a pepper this node does not
   * have, with a live previous secret under a previous pepper, costs a second HMAC on a wrong
   * secret, as the documented overlap across a pepper rotation does; an unknown client costs one.
   */
  @Test
  void whenTheCurrentPepperIsUnknownAndThePreviousKnownThenAWrongSecretCostsTwoHmacs() {
    AtomicInteger reads = new AtomicInteger();
    SecretDigest counted =
        new SecretDigest(
            new CountingPepper(settings.secrets().pepper(), reads),
            List.of(new CountingPepper(oldSettings.secrets().pepper(), reads)));
    ClientAuthenticator authenticator =
        TestEndpoints.authenticator(node, settings, accounts, counted, clock);
    Settings strange = TestSettings.with(Map.of(JndiSettings.SECRET_PEPPER, STRANGE_PEPPER));
    UUID id = account(oldDigest.of("old-secret"));
    accounts.change(
        id,
        it ->
            it.replaceSecret(
                new SecretDigest(strange.secrets().pepper()).of("strange-secret"),
                Duration.ofHours(24),
                clock.instant()));

    reads.set(0);
    assertThrows(
        OAuthError.class, () -> authenticator.authenticate(request(UUID.randomUUID(), "wrong")));
    int unknown = reads.get();
    reads.set(0);
    assertThrows(OAuthError.class, () -> authenticator.authenticate(request(id, "wrong")));
    int strangeCurrent = reads.get();

    assertTrue(unknown > 0);
    assertEquals(2 * unknown, strangeCurrent, "a second HMAC, visible only in timing");
  }

  /** A pepper that counts how often its bytes are read: once per HMAC computed under it. */
  static final class CountingPepper implements SecretKey {
    final SecretKey real;
    final AtomicInteger reads;

    CountingPepper(SecretKey real, AtomicInteger reads) {
      this.real = real;
      this.reads = reads;
    }

    @Override
    public String getAlgorithm() {
      return real.getAlgorithm();
    }

    @Override
    public String getFormat() {
      return real.getFormat();
    }

    @Override
    public byte[] getEncoded() {
      reads.incrementAndGet();
      return real.getEncoded();
    }
  }

  @Test
  void whenAnAccountIsOnThePreviousPepperThenItCostsAsManyHmacsAsAnUnknownClient() {
    AtomicInteger reads = new AtomicInteger();
    SecretDigest counted =
        new SecretDigest(
            new CountingPepper(settings.secrets().pepper(), reads),
            List.of(new CountingPepper(oldSettings.secrets().pepper(), reads)));
    ClientAuthenticator authenticator =
        TestEndpoints.authenticator(node, settings, accounts, counted, clock);
    UUID onOld = account(oldDigest.of("old-pepper-secret"));
    UUID spanning = account(oldDigest.of("old-secret"));
    accounts.change(
        spanning,
        it -> it.replaceSecret(digest.of("new-secret"), Duration.ofHours(24), clock.instant()));
    ToIntFunction<String> cost =
        body -> {
          reads.set(0);
          assertThrows(
              OAuthError.class,
              () ->
                  authenticator.authenticate(
                      TokenRequest.from(
                          "grant_type=client_credentials&" + body,
                          "application/x-www-form-urlencoded",
                          null,
                          null)));
          return reads.get();
        };

    int unknown = cost.applyAsInt("client_id=" + UUID.randomUUID() + "&client_secret=wrong");
    int old = cost.applyAsInt("client_id=" + onOld + "&client_secret=wrong");
    int overlap = cost.applyAsInt("client_id=" + spanning + "&client_secret=wrong");

    assertTrue(unknown > 0, "the decoy costs an HMAC");
    assertEquals(unknown, old, "an account on the previous pepper: one HMAC, under it");
    assertEquals(2 * unknown, overlap, "an overlap across the pepper rotation: one more HMAC");
  }
}
