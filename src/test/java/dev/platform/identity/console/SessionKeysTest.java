package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SessionKeysTest {
  static final SecretKey OLD = key(1);
  static final SecretKey NEW = key(2);
  static final byte[] PLAIN = "a session".getBytes(StandardCharsets.US_ASCII);

  static SecretKey key(int fill) {
    byte[] bytes = new byte[32];
    java.util.Arrays.fill(bytes, (byte) fill);
    return new SecretKeySpec(bytes, "AES");
  }

  @Test
  void whenSealedThenItOpensUnderTheSameNameOnlyAndTwoSealsDiffer() {
    SessionKeys keys = new SessionKeys(NEW, List.of(), new SecureRandom());
    String sealed = keys.seal("identity-console", PLAIN);
    assertArrayEquals(PLAIN, keys.open("identity-console", sealed).orElseThrow());
    assertTrue(keys.open("identity-console-login", sealed).isEmpty(), "the name is bound");
    assertNotEquals(sealed, keys.seal("identity-console", PLAIN), "a fresh IV each time");
    assertFalse(
        new String(Base64.getUrlDecoder().decode(sealed), StandardCharsets.ISO_8859_1)
            .contains("a session"));
  }

  @Test
  void whenAnyByteIsChangedOrTheValueIsJunkThenItDoesNotOpen() {
    SessionKeys keys = new SessionKeys(NEW, List.of(), new SecureRandom());
    byte[] sealed = Base64.getUrlDecoder().decode(keys.seal("c", PLAIN));
    for (int i = 0; i < sealed.length; i++) {
      byte[] changed = sealed.clone();
      changed[i] ^= 1;
      String value = Base64.getUrlEncoder().withoutPadding().encodeToString(changed);
      assertTrue(keys.open("c", value).isEmpty(), "byte " + i);
    }
    for (String junk : List.of("", "AAAA", "!!!", "A".repeat(400), "a.b.c")) {
      assertTrue(keys.open("c", junk).isEmpty(), junk);
    }
  }

  @Test
  void whenTheKeyEncryptionKeyIsRotatedThenOldSessionsStillOpenAndNewOnesUseTheNewKey() {
    SessionKeys before = new SessionKeys(OLD, List.of(), new SecureRandom());
    SessionKeys after = new SessionKeys(NEW, List.of(OLD), new SecureRandom());
    SessionKeys stranger = new SessionKeys(key(3), List.of(), new SecureRandom());
    String old = before.seal("c", PLAIN);
    assertArrayEquals(PLAIN, after.open("c", old).orElseThrow());
    assertTrue(before.open("c", after.seal("c", PLAIN)).isEmpty(), "sealed under the new key");
    assertTrue(stranger.open("c", old).isEmpty(), "another deployment's key opens nothing");
    assertEquals(1, Base64.getUrlDecoder().decode(old)[0], "the format's version");
  }
}
