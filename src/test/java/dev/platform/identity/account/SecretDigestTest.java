package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SecretDigestTest {
  static SecretDigest digest(int pepperByte) {
    byte[] pepper = new byte[32];
    Arrays.fill(pepper, (byte) pepperByte);
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
    SecretDigest.Digest stored = digest.of("the-secret");

    assertTrue(digest.matches("the-secret", stored));
    assertNotEquals("the-secret", stored);
  }

  @Test
  void whenOtherSecretOrOtherPepperThenNoMatch() {
    SecretDigest.Digest stored = digest(1).of("the-secret");

    assertFalse(digest(1).matches("the-secreT", stored));
    assertFalse(digest(1).matches("", stored));
    assertFalse(digest(2).matches("the-secret", stored));
  }

  @Test
  void whenMatchedAgainstTwoDigestsThenTheAnswerSaysWhichOrNone() {
    SecretDigest digest = digest(1);
    SecretDigest.Digest current = digest.of("new-secret");
    SecretDigest.Digest previous = digest.of("old-secret");

    assertEquals(SecretDigest.Match.CURRENT, digest.match("new-secret", current, previous));
    assertEquals(SecretDigest.Match.PREVIOUS, digest.match("old-secret", current, previous));
    assertEquals(SecretDigest.Match.NONE, digest.match("other-secret", current, previous));
    assertEquals(SecretDigest.Match.NONE, digest.match("old-secret", current, current));
  }

  static SecretKeySpec pepper(int fill) {
    byte[] pepper = new byte[32];
    Arrays.fill(pepper, (byte) fill);
    return new SecretKeySpec(pepper, "HmacSHA256");
  }

  @Test
  void whenAPepperIsNamedThenItsIdIsALabelledHmacUnderItNeverAPrefixOfItsHash() throws Exception {
    javax.crypto.Mac hmac = javax.crypto.Mac.getInstance("HmacSHA256");
    hmac.init(pepper(1));
    byte[] expected =
        hmac.doFinal(
            "dev.platform.identity secret pepper id v1"
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    byte[] hash = MessageDigest.getInstance("SHA-256").digest(pepper(1).getEncoded());

    String id =
        dev.platform.identity.config.KeyId.of(
            pepper(1), dev.platform.identity.config.KeyId.Purpose.SECRET_PEPPER);

    assertEquals(HexFormat.of().formatHex(expected).substring(0, 16), id);
    assertNotEquals(HexFormat.of().formatHex(hash).substring(0, 16), id);
    assertNotEquals(
        dev.platform.identity.config.KeyId.of(
            pepper(1), dev.platform.identity.config.KeyId.Purpose.KEY_ENCRYPTION),
        id,
        "the same bytes as a key-encryption key have another id");
    assertTrue(id.matches("[0-9a-f]{16}"), id);
    assertEquals(id, digest(1).currentPepperId());
    assertEquals(id, digest(1).of("a-secret").pepperId());
    assertNotEquals(id, digest(2).currentPepperId());
  }

  @Test
  void whenTheDigestIsUnderAPreviousPepperThenItMatchesUnderThatPepper() {
    SecretDigest.Digest old = digest(1).of("the-secret");
    SecretDigest rotated = new SecretDigest(pepper(2), List.of(pepper(1)));

    assertTrue(rotated.matches("the-secret", old));
    assertFalse(rotated.matches("another-secret", old));
    assertEquals(SecretDigest.Match.CURRENT, rotated.match("the-secret", old, old));
    assertEquals(digest(2).of("the-secret"), rotated.of("the-secret"), "new ones: the current");
  }

  @Test
  void whenTheDigestNamesAPepperThisNodeDoesNotHaveThenItNeverMatches() {
    SecretDigest.Digest strange = digest(3).of("the-secret");
    SecretDigest rotated = new SecretDigest(pepper(2), List.of(pepper(1)));
    // Even with the right value: only the id says which pepper, and this node has not got it.
    SecretDigest.Digest misnamed =
        new SecretDigest.Digest(digest(2).of("the-secret").value(), strange.pepperId());

    assertFalse(rotated.matches("the-secret", strange));
    assertFalse(rotated.matches("the-secret", misnamed));
    assertEquals(SecretDigest.Match.NONE, rotated.match("the-secret", misnamed, misnamed));
  }

  @Test
  void whenAnOverlapSpansAPepperRotationThenEachSecretMatchesUnderItsOwnPepper() {
    SecretDigest rotated = new SecretDigest(pepper(2), List.of(pepper(1)));
    SecretDigest.Digest current = rotated.of("new-secret");
    SecretDigest.Digest previous = digest(1).of("old-secret");

    assertEquals(SecretDigest.Match.CURRENT, rotated.match("new-secret", current, previous));
    assertEquals(SecretDigest.Match.PREVIOUS, rotated.match("old-secret", current, previous));
    assertEquals(SecretDigest.Match.NONE, rotated.match("other-secret", current, previous));
  }

  @Test
  void whenAskedWhichPepperATextWasDigestedUnderThenTheAnswerIsItsIdOrNone() {
    SecretDigest rotated = new SecretDigest(pepper(2), List.of(pepper(1)));

    assertEquals(
        Optional.of(digest(1).currentPepperId()),
        rotated.pepperOf("label", digest(1).of("label").value()));
    assertEquals(
        Optional.of(rotated.currentPepperId()),
        rotated.pepperOf("label", rotated.of("label").value()));
    assertEquals(Optional.empty(), rotated.pepperOf("label", digest(3).of("label").value()));
  }
}
