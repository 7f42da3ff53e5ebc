package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.platform.identity.config.KeyId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The first attacker review of issue 19 §3 found the pepper id, then the first 8 bytes of the
 * pepper's SHA-256 with no label, to be 64 bits of the key that actually digests the secrets for a
 * pepper longer than HMAC's 64-byte block (which replaces such a key by its SHA-256), and the same
 * as the key-encryption key's id for the same bytes. The id is now a labelled HMAC under the key
 * ({@link KeyId}); these are the review's attacks, failing.
 */
class PepperIdAttackTest {

  @Test
  void whenThePepperIsLongerThanTheHmacBlockThenItsIdIsNoPartOfTheEffectiveHmacKey()
      throws Exception {
    byte[] pepper = new byte[96];
    Arrays.fill(pepper, (byte) 7);
    SecretDigest digest = new SecretDigest(new SecretKeySpec(pepper, "HmacSHA256"));
    byte[] effectiveKey = MessageDigest.getInstance("SHA-256").digest(pepper);

    // The digest is the HMAC under SHA-256(pepper): that is the key an attacker must find.
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(effectiveKey, "HmacSHA256"));
    byte[] underEffectiveKey = mac.doFinal("a-client-secret".getBytes(StandardCharsets.UTF_8));
    assertEquals(
        digest.of("a-client-secret").value(),
        java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(underEffectiveKey));

    // ... and the public id is not a piece of it.
    String effective = HexFormat.of().formatHex(effectiveKey);
    for (int i = 0; i + 16 <= effective.length(); i += 2) {
      assertNotEquals(effective.substring(i, i + 16), digest.currentPepperId());
    }
  }

  @Test
  void whenTheSameBytesAreBothPepperAndKeyEncryptionKeyThenTheirIdsDiffer() {
    byte[] key = new byte[32];
    Arrays.fill(key, (byte) 9);

    String pepperId = new SecretDigest(new SecretKeySpec(key, "HmacSHA256")).currentPepperId();
    String kekId = KeyId.of(new SecretKeySpec(key, "AES"), KeyId.Purpose.KEY_ENCRYPTION);

    assertNotEquals(kekId, pepperId);
  }
}
