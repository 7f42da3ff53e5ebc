package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SecretDigestTest {
  static SecretDigest digest(int pepperByte) {
    byte[] pepper = new byte[32];
    java.util.Arrays.fill(pepper, (byte) pepperByte);
    return new SecretDigest(new SecretKeySpec(pepper, "HmacSHA256"));
  }

  @Test
  void whenGeneratedThenSecretIs256BitBase64Url() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      String secret = ClientSecret.generate(new SecureRandom());
      assertEquals(43, secret.length());
      assertTrue(secret.matches("[A-Za-z0-9_-]{43}"), secret);
      seen.add(secret);
    }
    assertEquals(100, seen.size());
  }

  @Test
  void whenSameSecretThenMatches() {
    SecretDigest digest = digest(1);
    String stored = digest.of("the-secret");

    assertTrue(digest.matches("the-secret", stored));
    assertNotEquals("the-secret", stored);
  }

  @Test
  void whenOtherSecretOrOtherPepperThenNoMatch() {
    String stored = digest(1).of("the-secret");

    assertFalse(digest(1).matches("the-secreT", stored));
    assertFalse(digest(1).matches("", stored));
    assertFalse(digest(2).matches("the-secret", stored));
  }

  @Test
  void whenMatchedAgainstTwoDigestsThenTheAnswerSaysWhichOrNone() {
    SecretDigest digest = digest(1);
    String current = digest.of("new-secret");
    String previous = digest.of("old-secret");

    assertEquals(SecretDigest.Match.CURRENT, digest.match("new-secret", current, previous));
    assertEquals(SecretDigest.Match.PREVIOUS, digest.match("old-secret", current, previous));
    assertEquals(SecretDigest.Match.NONE, digest.match("other-secret", current, previous));
    assertEquals(SecretDigest.Match.NONE, digest.match("old-secret", current, current));
  }
}
