package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.jose.DpopProof;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.jose.DpopReplays;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 40: the session's own DPoP key, kept in the sealed cookie and rebuilt from it. */
class SessionKeyTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final URI TARGET = URI.create("https://id.example.com/console/accounts");

  final SecureRandom random = new SecureRandom();
  final DpopProofs proofs = DpopProofs.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();

  @Test
  void whenReadBackFromItsTextThenItSignsProofsOfTheSameKeyThatTheCheckerTakes() {
    SessionKey key = SessionKey.generate(random);
    String text = key.encoded();
    assertEquals(128, text.length(), text);
    SessionKey read = SessionKey.of(text).orElseThrow();
    assertEquals(text, read.encoded());
    String proof = read.signer(random).proof("GET", TARGET, null, "token", NOW);
    DpopProof checked =
        proofs.check(
            List.of(proof),
            "GET",
            TARGET,
            Optional.of(DpopProofs.accessTokenHash("token")),
            Optional.empty());
    assertEquals(key.signer(random).thumbprint(), checked.thumbprint());
    assertNotEquals(
        key.signer(random).thumbprint(), SessionKey.generate(random).signer(random).thumbprint());
  }

  @Test
  void whenTheTextIsNotAKeyThenNoneIsRead() {
    String good = SessionKey.generate(random).encoded();
    byte[] bytes = Base64.getUrlDecoder().decode(good);
    bytes[95] ^= 1; // y no longer on the curve
    byte[] zero = Base64.getUrlDecoder().decode(good);
    Arrays.fill(zero, 0, 32, (byte) 0); // a scalar of 0
    for (String junk :
        List.of(
            "",
            good.substring(1),
            good + "A",
            good.replace(good.charAt(0), '+'),
            Base64.getUrlEncoder().withoutPadding().encodeToString(bytes),
            Base64.getUrlEncoder().withoutPadding().encodeToString(zero))) {
      assertTrue(SessionKey.of(junk).isEmpty(), junk);
    }
  }

  @Test
  void whenShownThenTheKeyIsNot() {
    SessionKey key = SessionKey.generate(random);
    assertFalse(key.toString().contains(key.encoded().substring(0, 20)), key.toString());
    assertEquals("SessionKey[ES256]", key.toString());
  }

  @Test
  void whenEachRequestIsSignedThenEachProofHasANewJtiTheReplayMemoryTakes() {
    SessionKey key = SessionKey.generate(random);
    DpopReplays replays = new DpopReplays(Clock.fixed(NOW, ZoneOffset.UTC), 10);
    for (int i = 0; i < 3; i++) {
      DpopProof proof =
          proofs.check(
              List.of(key.signer(random).proof("GET", TARGET, null, null, NOW)),
              "GET",
              TARGET,
              Optional.empty(),
              Optional.empty());
      replays.claim(proof);
    }
    assertEquals(3, replays.size(), "three proofs, three jtis");
  }
}
