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
import javax.crypto.SecretKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attack review of issue 19 §3 (pepper rotation) on the token path: the rewrite racing a secret
 * rotation, two nodes that disagree on the current pepper, and the HMAC count of an account whose
 * current digest is under a pepper this node does not have.
 */
class PepperRotationAttackTest {
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
      new CountingDataSource(TestDatabases.h2DataSource("pepper-attack-" + UUID.randomUUID()));
  final TestNodes.Node node = TestNodes.node(counting.dataSource(), settings, Clock.systemUTC());
  final MutableClock clock = new MutableClock(START);
  final SecretDigest oldDigest = new SecretDigest(oldSettings.secretPepper());
  final SecretDigest digest =
      new SecretDigest(settings.secretPepper(), settings.previousSecretPeppers());
  final ServiceAccounts accounts = new ServiceAccounts(node.database());

  @BeforeEach
  void startKeys() {
    node.rotation().start();
    new PepperCheck(node.database().dataSource()).verify(digest); // a node on the new pepper ran
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

  static TokenRequest request(UUID id, String secret) {
    return TokenRequest.from(
        "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret,
        "application/x-www-form-urlencoded",
        null,
        null);
  }

  List<String> writes() {
    return counting.statements().stream()
        .filter(sql -> !sql.trim().toLowerCase().startsWith("select"))
        .toList();
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
        new SecretDigest(oldSettings.secretPepper(), List.of(settings.secretPepper()));
    ClientAuthenticator nodeA = new ClientAuthenticator(accounts, digest, clock, Optional.empty());
    ClientAuthenticator nodeB = new ClientAuthenticator(accounts, behind, clock, Optional.empty());
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
            new CountingPepper(settings.secretPepper(), reads),
            List.of(new CountingPepper(oldSettings.secretPepper(), reads)));
    ClientAuthenticator authenticator =
        new ClientAuthenticator(accounts, counted, clock, Optional.empty());
    Settings strange = TestSettings.with(Map.of(JndiSettings.SECRET_PEPPER, STRANGE_PEPPER));
    UUID id = account(oldDigest.of("old-secret"));
    accounts.change(
        id,
        it ->
            it.replaceSecret(
                new SecretDigest(strange.secretPepper()).of("strange-secret"),
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

  /** A pepper that counts how often its bytes are read: once per HMAC initialisation. */
  static final class CountingPepper implements SecretKey {
    private final SecretKey real;
    private final AtomicInteger reads;

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
}
