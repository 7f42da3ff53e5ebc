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
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.key.TestNodes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19 on the token path: both secrets during an overlap, the audit line naming the one used,
 * the maximum secret age. Time is a fixed clock moved by the test; keys sign on the system clock.
 */
class SecretRotationTokenTest {
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  final Settings settings = TestNodes.settings();
  final TestNodes.Node node =
      TestNodes.node(
          TestDatabases.h2DataSource("rotation-" + UUID.randomUUID()), settings, Clock.systemUTC());
  final MutableClock clock = new MutableClock(START);
  final SecretDigest digest = new SecretDigest(settings.secrets().pepper());
  final ServiceAccounts accounts = new ServiceAccounts(node.database());
  final LogCapture audit = LogCapture.of(AuditLog.LOGGER);
  final TokenServlet endpoint = endpoint(Optional.of(Duration.ofDays(90)));

  @BeforeEach
  void startKeys() {
    node.rotation().start();
  }

  TokenServlet endpoint(Optional<Duration> secretMaxAge) {
    return TestEndpoints.token(node, settings, clock, secretMaxAge);
  }

  @AfterEach
  void close() {
    audit.close();
    node.close();
  }

  UUID account(String secret) {
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            id,
            new AccountProfile("reader", "org", List.of(), List.of("catalog:*"), "catalog"),
            digest.of(secret),
            clock.instant()));
    return id;
  }

  void rotate(UUID id, String secret, Duration overlap) {
    accounts.change(id, it -> it.replaceSecret(digest.of(secret), overlap, clock.instant()));
  }

  TokenResponseBody issue(UUID id, String secret) {
    String body = "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret;
    return endpoint.issue(body, "application/x-www-form-urlencoded", null, null, "127.0.0.1");
  }

  OAuthError refused(UUID id, String secret) {
    return assertThrows(OAuthError.class, () -> issue(id, secret));
  }

  List<String> lines(String event) {
    return audit.messages().stream().filter(line -> line.contains("\"" + event + "\"")).toList();
  }

  @Test
  void whenRotatedWithAnOverlapThenBothSecretsGetTokensAndTheAuditLineSaysWhich() {
    UUID id = account("old-secret");
    rotate(id, "new-secret", Duration.ofHours(24));

    issue(id, "new-secret");
    issue(id, "old-secret");

    List<String> issued = lines("token.issue");
    assertEquals(2, issued.size(), issued.toString());
    assertTrue(issued.get(0).contains("\"secret\":\"current\""), issued.get(0));
    assertTrue(issued.get(1).contains("\"secret\":\"previous\""), issued.get(1));
    assertTrue(audit.messages().stream().noneMatch(line -> line.contains("old-secret")));
  }

  @Test
  void whenTheOverlapHasEndedThenTheOldSecretIsRefused() {
    UUID id = account("old-secret");
    rotate(id, "new-secret", Duration.ofHours(24));
    clock.advance(Duration.ofHours(24));

    OAuthError refusal = refused(id, "old-secret");

    assertEquals(401, refusal.status());
    assertEquals(ClientAuthenticator.FAILED, refusal.description());
    issue(id, "new-secret");
  }

  @Test
  void whenRotatedWithoutAnOverlapThenTheOldSecretFailsAtOnce() {
    UUID id = account("old-secret");
    rotate(id, "new-secret", Duration.ZERO);

    assertEquals(ClientAuthenticator.FAILED, refused(id, "old-secret").description());
  }

  @Test
  void whenThePreviousSecretOfAnotherAccountIsPresentedThenItIsRefused() {
    UUID victim = account("victim-old");
    rotate(victim, "victim-new", Duration.ofDays(7));
    UUID attacker = account("attacker-old");
    rotate(attacker, "attacker-new", Duration.ofDays(7));

    assertEquals(401, refused(attacker, "victim-old").status());
    assertEquals(401, refused(victim, "attacker-old").status());
  }

  @Test
  void whenRotatedAgainDuringAnOverlapThenTheFirstSecretFailsAtOnce() {
    UUID id = account("first");
    rotate(id, "second", Duration.ofDays(7));
    clock.advance(Duration.ofHours(1));
    rotate(id, "third", Duration.ofDays(7));

    assertEquals(401, refused(id, "first").status());
    issue(id, "second");
    issue(id, "third");
  }

  @Test
  void whenTheCurrentSecretIsOlderThanTheMaximumAgeThenItIsRefusedAsExpiredAndAudited() {
    UUID id = account("aging-secret");
    clock.advance(Duration.ofDays(90));

    OAuthError expired = refused(id, "aging-secret");
    OAuthError wrong = refused(id, "wrong-secret");

    assertEquals(401, expired.status());
    assertEquals(OAuthError.INVALID_CLIENT, expired.error());
    assertEquals(ClientAuthenticator.EXPIRED, expired.description());
    assertEquals(ClientAuthenticator.FAILED, wrong.description());
    List<String> refusals = lines("token.refuse");
    assertEquals(2, refusals.size(), refusals.toString());
    assertTrue(refusals.get(0).contains("\"reason\":\"secret_expired\""), refusals.get(0));
    assertTrue(!refusals.get(1).contains("secret_expired"), refusals.get(1));
  }

  @Test
  void whenTheSecretIsRotatedBeforeItsMaximumAgeThenTheNewOneWorks() {
    UUID id = account("aging-secret");
    clock.advance(Duration.ofDays(89));
    rotate(id, "fresh-secret", Duration.ofDays(2));
    clock.advance(Duration.ofDays(1));

    issue(id, "fresh-secret");
    // The previous secret is judged by the current one's age: still in its overlap, it works.
    issue(id, "aging-secret");
  }

  @Test
  void whenTheSecretExpiresWithinFourteenDaysThenThatIsAuditedOnceADayPerAccount() {
    UUID first = account("first-secret");
    UUID second = account("second-secret");
    clock.advance(Duration.ofDays(76));
    issue(first, "first-secret");
    assertTrue(lines("account.secret.expiring").isEmpty(), "15 days left: nothing yet");

    clock.advance(Duration.ofDays(1).plusHours(1));
    issue(first, "first-secret");
    issue(first, "first-secret");
    issue(second, "second-secret");
    clock.advance(Duration.ofHours(1));
    issue(first, "first-secret");
    clock.advance(Duration.ofDays(1));
    issue(first, "first-secret");

    List<String> notices = lines("account.secret.expiring");
    assertEquals(3, notices.size(), notices.toString());
    assertTrue(notices.get(0).contains(first.toString()), notices.get(0));
    assertTrue(notices.get(0).contains("\"expires_at\":\"2026-04-01T00:00:00Z\""), notices.get(0));
    assertTrue(notices.get(1).contains(second.toString()), notices.get(1));
    assertTrue(notices.get(2).contains(first.toString()), notices.get(2));
  }

  @Test
  void whenNoMaximumAgeIsSetThenAnOldSecretStillWorks() {
    TokenServlet unlimited = endpoint(Optional.empty());
    UUID id = account("old-secret");
    clock.advance(Duration.ofDays(4000));

    String body = "grant_type=client_credentials&client_id=" + id + "&client_secret=old-secret";
    unlimited.issue(body, "application/x-www-form-urlencoded", null, null, "127.0.0.1");
  }
}
