package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.hsm.JvmToken;
import dev.platform.identity.hsm.SoftHsm;
import dev.platform.identity.key.TestNodes.Node;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 24, in this JVM: keys made inside a SoftHSM2 token, found by a second session, never
 * extractable, deleted once out of the list, and the move from the database without an outage. The
 * JVM's {@code SOFTHSM2_CONF} (failsafe's environment) names {@code target/softhsm-jvm}, whose
 * tokens are made anew before the module is first initialised here.
 */
@EnabledIfSystemProperty(named = SoftHsm.LIBRARY_PROPERTY, matches = ".+")
class Pkcs11KeysIT {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration INTERVAL = Duration.ofDays(90);
  private static final Duration PRE_PUBLICATION = Duration.ofHours(24);

  private static SoftHsm.Token token;

  private final String kek = TestNodes.randomKey();
  private final MutableClock clock = new MutableClock(START);

  @BeforeAll
  static void makeToken() throws Exception {
    token = JvmToken.get(); // shared with the other ITs of this JVM (SoftHSM reads its tokens once)
  }

  @Test
  void whenAKeyIsMadeInTheTokenThenASecondSessionFindsItSignsWithItAndCannotExtractIt()
      throws Exception {
    PrivateKeys keys = PrivateKeys.of(settings("pkcs11", Map.of()).keys(), encryption(), clock);
    KeyMaterial material = keys.generate(2048, TestNodes.RANDOM);
    assertEquals(PrivateKeyHome.PKCS11, material.home());
    assertNull(material.privateKey(), "no private bytes for the row");

    Provider second = provider(); // a new provider instance: its own sessions, its own KeyStore
    KeyStore store = KeyStore.getInstance("PKCS11", second);
    store.load(null, SoftHsm.PIN.toCharArray());
    PrivateKey found = (PrivateKey) store.getKey(material.kid(), null);
    Signature rs256 = Signature.getInstance("SHA256withRSA", second);
    rs256.initSign(found);
    rs256.update("signed in the token".getBytes(StandardCharsets.UTF_8));
    byte[] signature = rs256.sign();
    Signature check = Signature.getInstance("SHA256withRSA", "SunRsaSign");
    check.initVerify(publicKey(material.publicKey()));
    check.update("signed in the token".getBytes(StandardCharsets.UTF_8));
    assertTrue(check.verify(signature), "the row's public key is the token key's");

    assertNull(found.getEncoded(), "a sensitive key has no encoding");
    assertThrows(
        InvalidKeySpecException.class,
        () -> KeyFactory.getInstance("RSA", second).getKeySpec(found, RSAPrivateCrtKeySpec.class));
    KeyStore copy = KeyStore.getInstance("PKCS12");
    copy.load(null, null);
    assertThrows(
        Exception.class,
        () ->
            copy.setKeyEntry(
                "copy", found, "x".toCharArray(), store.getCertificateChain(material.kid())));
  }

  @Test
  void whenTheStoreMovesToPkcs11ThenTheDatabaseKeySignsUntilTheScheduledSuccessorFromTheToken()
      throws Exception {
    String database = TestNodes.newDatabase();
    String first;
    try (Node before = TestNodes.node(database, settings("database", Map.of()), clock)) {
      before.rotation().rotateIfDue();
      first = before.ring().current().kid();
      assertFalse(before.ring().current().inToken());
    }
    try (Node after = TestNodes.node(database, settings("pkcs11", Map.of()), clock)) {
      after.rotation().rotateIfDue();
      assertEquals(first, after.ring().current().kid(), "the stored key still signs");
      assertFalse(after.ring().current().inToken());

      clock.set(START.plus(INTERVAL).minus(PRE_PUBLICATION));
      assertTrue(after.rotation().rotateIfDue(), "the schedule's next key");
      SigningKey next = newest(after.keys().all());
      assertEquals(PrivateKeyHome.PKCS11, next.home());
      assertEquals(first, after.ring().current().kid(), "until the successor's start");

      clock.set(next.activeFrom());
      CurrentKey current = after.ring().current();
      assertEquals(next.kid(), current.kid());
      assertTrue(current.inToken());
      assertTrue(signsFor(current, next.rsaPublicKey()));
      assertTrue(tokenAliases().contains(next.kid()));
      assertTrue(after.ring().signingProblem().isEmpty());
    }
  }

  @Test
  void whenATokenKeyIsRevokedOrExpiresThenItsObjectsLeaveTheToken() throws Exception {
    String database = TestNodes.newDatabase();
    try (Node node = TestNodes.node(database, settings("pkcs11", Map.of()), clock)) {
      node.rotation().rotateIfDue();
      String first = node.ring().current().kid();
      clock.advance(Duration.ofMinutes(1));
      SigningKey second = node.rotation().rotate(true);
      assertEquals(second.kid(), node.ring().current().kid());
      assertTrue(
          tokenAliases().containsAll(List.of(first, second.kid())),
          first + ", " + second.kid() + " in " + tokenAliases());

      clock.advance(Duration.ofMinutes(1));
      node.rotation().revoke(second.kid());
      assertTrue(tokenAliases().contains(second.kid()), "other nodes sign until they refresh");
      clock.advance(Duration.ofSeconds(30 * 2 + 5)); // two refreshes (PT30S) and the skew
      node.rotation().rotateIfDue();
      assertTrue(tokenAliases().contains(second.kid()), "not before the grace has passed");
      clock.advance(Duration.ofSeconds(1));
      node.rotation().rotateIfDue();
      assertFalse(tokenAliases().contains(second.kid()), "revoked: gone after the grace");
      String third = node.ring().current().kid();
      assertNotEquals(second.kid(), third);

      clock.advance(Duration.ofDays(2)); // past the first key's retention
      node.rotation().rotateIfDue();
      assertFalse(tokenAliases().contains(first), "expired: gone at the next refresh");
      assertTrue(
          tokenAliases().contains(third),
          third + " in " + tokenAliases() + " rows " + node.ring().statuses());
    }
  }

  @Test
  void whenTheTokenLostTheKeyThatShouldSignThenANewKeyReplacesItAndTheLostOneStaysListed()
      throws Exception {
    try (Node node = TestNodes.node(TestNodes.newDatabase(), settings("pkcs11", Map.of()), clock)) {
      node.rotation().rotateIfDue();
      clock.advance(Duration.ofMinutes(1));
      SigningKey next = node.rotation().rotate(false);
      KeyStore store = KeyStore.getInstance("PKCS11", provider());
      store.load(null, SoftHsm.PIN.toCharArray());
      store.deleteEntry(next.kid()); // a token reset, an old backup, a hand

      clock.set(next.activeFrom());
      assertEquals(Optional.of(KeyRing.KEY_NOT_IN_TOKEN), node.ring().signingProblem());
      assertTrue(node.ring().lookup(next.kid()).isPresent(), "its public key is served still");
      node.rotation().rotateIfDue();

      CurrentKey current = node.ring().current();
      assertNotEquals(next.kid(), current.kid());
      assertTrue(current.inToken());
      assertTrue(signsFor(current, newest(node.keys().all()).rsaPublicKey()));
      assertTrue(node.ring().lookup(next.kid()).isPresent(), "the tokens it signed still verify");
    }
  }

  @Test
  void whenAKeyAnotherNodeJustMadeIsMissingFromTheTokenThenItIsReplacedOnlyAfterTheGrace()
      throws Exception {
    String database = TestNodes.newDatabase();
    Settings settings = settings("pkcs11", Map.of());
    try (Node a = TestNodes.node(database, settings, clock);
        Node b = TestNodes.node(database, settings, clock)) {
      a.rotation().rotateIfDue();
      clock.advance(Duration.ofMinutes(1));
      SigningKey made = a.rotation().rotate(true);
      KeyStore store = KeyStore.getInstance("PKCS11", provider());
      store.load(null, SoftHsm.PIN.toCharArray());
      store.deleteEntry(made.kid()); // as b's view of the token may lag behind a's for a while

      clock.advance(KeyRotation.LOST_KEY_GRACE.minusSeconds(1));
      b.rotation().rotateIfDue();
      assertEquals(Optional.of(KeyRing.KEY_NOT_IN_TOKEN), b.ring().signingProblem());
      assertEquals(made.kid(), newest(b.keys().all()).kid(), "no key replaces it yet");

      clock.advance(Duration.ofSeconds(1));
      b.rotation().rotateIfDue();
      CurrentKey current = b.ring().current();
      assertNotEquals(made.kid(), current.kid());
      assertTrue(current.inToken());
      assertTrue(b.ring().lookup(made.kid()).isPresent(), "the tokens it signed still verify");
    }
  }

  @Test
  void whenANodeWithoutTheTokenSettingsMeetsATokenKeyThenItStopsNamingTheLibraryNotReplacingIt() {
    String database = TestNodes.newDatabase();
    try (Node node = TestNodes.node(database, settings("pkcs11", Map.of()), clock)) {
      node.rotation().rotateIfDue();
    }
    Settings withoutToken = TestNodes.settings(Map.of(JndiSettings.KEY_ENCRYPTION_KEY, kek));
    try (Node node = TestNodes.node(database, withoutToken, clock)) {
      InvalidSettingException e =
          assertThrows(InvalidSettingException.class, () -> node.rotation().rotateIfDue());
      assertTrue(e.getMessage().contains(JndiSettings.PKCS11_LIBRARY), e.getMessage());
      assertEquals(1, node.keys().all().size(), "no key was made in its place");
    }
  }

  @Test
  void whenTwoNodesRaceForTheNextSlotThenTheLoserDeletesTheKeyItMade() throws Exception {
    String database = TestNodes.newDatabase();
    Settings settings = settings("pkcs11", Map.of());
    try (Node a = TestNodes.node(database, settings, clock);
        Node b = TestNodes.node(database, settings, clock)) {
      a.rotation().rotateIfDue();
      b.ring().refresh();
      List<SigningKey> rows = a.keys().all();
      Instant due = START.plus(INTERVAL).minus(PRE_PUBLICATION);
      clock.set(due);
      List<String> before = tokenAliases();
      assertTrue(a.rotation().createIfDue(rows, due));
      assertFalse(b.rotation().createIfDue(rows, due), "the slot is taken");

      List<String> added =
          tokenAliases().stream().filter(alias -> !before.contains(alias)).toList();
      assertEquals(List.of(newest(a.keys().all()).kid()), added, "b deleted the key it made");
      b.ring().refresh();
      clock.set(newest(a.keys().all()).activeFrom());
      assertEquals(a.ring().current().kid(), b.ring().current().kid());
      assertTrue(b.ring().current().inToken(), "b reloaded its KeyStore for a's key");
    }
  }

  @Test
  void whenTheKeyEncryptionKeyRotatesThenTokenRowsAreVouchedForUnderTheNewOne() {
    String database = TestNodes.newDatabase();
    String kid;
    try (Node node = TestNodes.node(database, settings("pkcs11", Map.of()), clock)) {
      node.rotation().rotateIfDue();
      kid = node.ring().current().kid();
    }
    String newKek = TestNodes.randomKey();
    Map<String, String> rotated =
        Map.of(
            JndiSettings.KEY_ENCRYPTION_KEY, newKek,
            JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS, kek);
    try (Node node = TestNodes.node(database, settings("pkcs11", rotated), clock)) {
      node.rotation().rotateIfDue();
      assertEquals(0, node.ring().sealedUnderPreviousKeys());
    }
    Map<String, String> only = Map.of(JndiSettings.KEY_ENCRYPTION_KEY, newKek);
    try (Node node = TestNodes.node(database, settings("pkcs11", only), clock)) {
      node.rotation().rotateIfDue();
      assertEquals(kid, node.ring().current().kid(), "trusted without the old key");
    }
  }

  @Test
  void whenTheSlotIsUnknownThenTheStartNamesTheSlotSetting() {
    InvalidSettingException e =
        assertThrows(
            InvalidSettingException.class,
            () ->
                PrivateKeys.of(
                    settings("pkcs11", Map.of(JndiSettings.PKCS11_SLOT, "987654")).keys(),
                    encryption(),
                    clock));
    assertTrue(e.getMessage().contains(JndiSettings.PKCS11_SLOT), e.getMessage());
  }

  @Test
  void whenTheLabelCannotBeReadWithoutTheExportThenTheStartSaysWhatToDo() {
    Map<String, String> byLabel = new HashMap<>();
    byLabel.put(JndiSettings.PKCS11_SLOT, "");
    byLabel.put(JndiSettings.PKCS11_TOKEN_LABEL, token.label());
    InvalidSettingException e =
        assertThrows(
            InvalidSettingException.class,
            () -> PrivateKeys.of(settings("pkcs11", byLabel).keys(), encryption(), clock));
    assertTrue(e.getMessage().contains(JndiSettings.PKCS11_TOKEN_LABEL), e.getMessage());
    assertTrue(e.getMessage().contains("--add-exports"), e.getMessage());
  }

  private Settings settings(String keyStore, Map<String, String> overrides) {
    return TestNodes.tokenSettings(kek, token, keyStore, overrides);
  }

  private KeyEncryption encryption() {
    return TestNodes.encryption(kek);
  }

  private static Provider provider() {
    return Security.getProvider("SunPKCS11")
        .configure(
            "--name=second\nlibrary = "
                + SoftHsm.requiredLibrary()
                + "\nslot = "
                + token.slot()
                + "\n");
  }

  /** The aliases a fresh session's KeyStore lists on the token. */
  private static List<String> tokenAliases() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS11", provider());
    store.load(null, SoftHsm.PIN.toCharArray());
    return Collections.list(store.aliases());
  }

  private static SigningKey newest(List<SigningKey> keys) {
    return keys.stream().max((a, b) -> a.createdAt().compareTo(b.createdAt())).orElseThrow();
  }

  private static boolean signsFor(CurrentKey key, PublicKey publicKey)
      throws GeneralSecurityException {
    byte[] message = "probe".getBytes(StandardCharsets.UTF_8);
    Signature rs256 = key.rs256();
    rs256.update(message);
    byte[] signature = rs256.sign();
    Signature check = Signature.getInstance("SHA256withRSA", "SunRsaSign");
    check.initVerify(publicKey);
    check.update(message);
    return check.verify(signature);
  }

  private static PublicKey publicKey(byte[] encoded) throws GeneralSecurityException {
    return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(encoded));
  }
}
