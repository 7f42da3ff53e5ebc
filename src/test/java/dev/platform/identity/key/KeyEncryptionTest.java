package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

class KeyEncryptionTest {
  private static final String SETTING = "java:comp/env/identity/keyEncryptionKey";

  private final Settings settings = TestNodes.settings();
  private final KeyEncryption encryption =
      new KeyEncryption(settings.secrets().keyEncryptionKey(), TestNodes.RANDOM);

  @Test
  void whenSealedThenOpensToTheSamePrivateKey() {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);

    byte[] opened = encryption.open(material.kid(), material.privateKey()).getEncoded();

    assertEquals("PKCS#8", encryption.open(material.kid(), material.privateKey()).getFormat());
    assertEquals(12, material.privateKey().nonce().length);
    assertFalse(contains(material.privateKey().ciphertext(), Arrays.copyOf(opened, 26)));
  }

  @Test
  void whenSameKeySealedTwiceThenNoncesDiffer() {
    SealedKey first = encryption.seal("kid", new byte[] {1, 2, 3});
    SealedKey second = encryption.seal("kid", new byte[] {1, 2, 3});

    assertFalse(Arrays.equals(first.nonce(), second.nonce()));
    assertFalse(Arrays.equals(first.ciphertext(), second.ciphertext()));
  }

  @Test
  void whenOpenedUnderAnotherKidThenFails() {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);

    assertThrows(
        IllegalStateException.class, () -> encryption.open("other-kid", material.privateKey()));
  }

  @Test
  void whenWrongKeyEncryptionKeyThenFailureNamesTheSetting() {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);
    KeyEncryption wrong =
        new KeyEncryption(TestNodes.settings().secrets().keyEncryptionKey(), TestNodes.RANDOM);

    IllegalStateException failure =
        assertThrows(
            IllegalStateException.class, () -> wrong.open(material.kid(), material.privateKey()));

    assertTrue(failure.getMessage().startsWith(SETTING), failure.getMessage());
    assertTrue(failure.getMessage().contains(material.kid()));
  }

  @Test
  void whenNodeStartsWithWrongKeyEncryptionKeyThenStartFailsNamingTheSetting() {
    String database = TestNodes.newDatabase();
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    try (Node first = TestNodes.node(database, settings, clock)) {
      first.rotation().start();
    }
    Settings wrongKey =
        TestNodes.settings(Map.of(JndiSettings.KEY_ENCRYPTION_KEY, TestNodes.randomKey()));
    try (Node restarted = TestNodes.node(database, wrongKey, clock)) {
      IllegalStateException failure =
          assertThrows(IllegalStateException.class, () -> restarted.rotation().start());

      assertTrue(failure.getMessage().startsWith(SETTING), failure.getMessage());
    }
    try (Node restarted = TestNodes.node(database, settings, clock)) {
      assertEquals(1, restarted.keys().all().size(), "no key was added under the wrong key");
      restarted.rotation().start();
      assertEquals(restarted.keys().all().get(0).kid(), restarted.ring().current().kid());
    }
  }

  static boolean contains(byte[] haystack, byte[] needle) {
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return true;
      }
    }
    return false;
  }

  @Test
  void whenSealedThenTheKeyRecordsTheIdOfTheCurrentKeyEncryptionKey() throws Exception {
    SealedKey sealed = encryption.seal("kid", new byte[] {1, 2, 3});

    javax.crypto.Mac hmac = javax.crypto.Mac.getInstance("HmacSHA256");
    hmac.init(
        new javax.crypto.spec.SecretKeySpec(
            settings.secrets().keyEncryptionKey().getEncoded(), "HmacSHA256"));
    byte[] id =
        hmac.doFinal(
            "dev.platform.identity key-encryption key id v1"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals(java.util.HexFormat.of().formatHex(id, 0, 8), sealed.kekId());
    assertTrue(sealed.kekId().matches("[0-9a-f]{16}"), sealed.kekId());
  }

  @Test
  void whenSealedUnderAPreviousKeyThenOpensUnderItByItsIdAndResealsUnderTheCurrentOne() {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);
    SecretKey next = TestNodes.settings().secrets().keyEncryptionKey();
    KeyEncryption rotated =
        new KeyEncryption(
            next,
            List.of(settings.secrets().keyEncryptionKey()),
            TestNodes.RANDOM,
            RsaProvider.jdk());

    byte[] before = encryption.open(material.kid(), material.privateKey()).getEncoded();
    SealedKey resealed = rotated.reseal(material.kid(), material.privateKey());

    assertEquals(KeyEncryptionKey.idOf(next), resealed.kekId());
    assertArrayEquals(before, rotated.open(material.kid(), material.privateKey()).getEncoded());
    assertArrayEquals(before, rotated.open(material.kid(), resealed).getEncoded());
    assertFalse(Arrays.equals(material.privateKey().nonce(), resealed.nonce()));
    assertThrows(IllegalStateException.class, () -> encryption.open(material.kid(), resealed));
  }

  @Test
  void whenTheKeyIdIsUnknownThenNoKeyIsTriedAndTheFailureNamesTheIdTheKidAndTheFix() {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);
    KeyEncryption other =
        new KeyEncryption(TestNodes.settings().secrets().keyEncryptionKey(), TestNodes.RANDOM);
    String kekId = material.privateKey().kekId();

    IllegalStateException failure =
        assertThrows(
            IllegalStateException.class, () -> other.open(material.kid(), material.privateKey()));

    assertTrue(
        failure.getMessage().startsWith(SETTING + " does not decrypt"), failure.getMessage());
    assertTrue(failure.getMessage().contains("key-encryption key " + kekId), failure.getMessage());
    assertTrue(failure.getMessage().contains(material.kid()), failure.getMessage());
    assertTrue(
        failure.getMessage().contains("java:comp/env/identity/previousKeyEncryptionKeys"),
        failure.getMessage());
    assertEquals(null, failure.getCause(), "no decryption was tried");
  }

  @Test
  void whenTheRowIsSealedUnderTheKeyItNamesButChangedThenTheFailureNamesThatKey() {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);
    byte[] changed = material.privateKey().ciphertext().clone();
    changed[0] ^= 1;
    SealedKey tampered =
        new SealedKey(material.privateKey().nonce(), changed, material.privateKey().kekId());

    IllegalStateException failure =
        assertThrows(IllegalStateException.class, () -> encryption.open(material.kid(), tampered));

    assertTrue(failure.getMessage().contains(tampered.kekId()), failure.getMessage());
  }
}
