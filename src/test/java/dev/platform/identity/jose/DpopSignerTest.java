package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one maker of DPoP proofs, shared by {@code TokenClient} and the console: what it signs, the
 * checker takes, for ES256 and RS256; it names the target without query; it hides the key.
 */
class DpopSignerTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final URI TARGET = URI.create("https://id.example.com/oauth/token?x=1#f");

  final DpopProofs proofs = DpopProofs.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();

  static KeyPair pair(String algorithm) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
    if (algorithm.equals("EC")) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }

  @Test
  void whenAProofIsMadeThenTheCheckerTakesItForItsKeyMethodAndTarget() throws Exception {
    for (String algorithm : List.of("EC", "RSA")) {
      KeyPair keys = pair(algorithm);
      DpopSigner signer = new DpopSigner(keys, new SecureRandom());
      String proof = signer.proof("POST", TARGET, "n-1", "token", NOW);
      DpopProof checked =
          proofs.check(
              List.of(proof),
              "POST",
              URI.create("https://id.example.com/oauth/token"),
              Optional.of(DpopProofs.accessTokenHash("token")),
              Optional.of("n-1"));
      assertEquals(Jwk.thumbprint(keys.getPublic()), checked.thumbprint());
      assertEquals(signer.thumbprint(), checked.thumbprint());
      String claims = new String(Base64.getUrlDecoder().decode(proof.split("\\.")[1]), "UTF-8");
      assertTrue(claims.contains("\"htu\":\"https://id.example.com/oauth/token\""), claims);
      assertThrows(
          DpopProofException.class,
          () -> proofs.check(List.of(proof), "GET", TARGET, Optional.empty(), Optional.of("n-1")));
    }
  }

  @Test
  void whenTheHalvesDoNotBelongTogetherOrTheTargetIsNoUrlThenRefused() throws Exception {
    KeyPair mixed = new KeyPair(pair("EC").getPublic(), pair("EC").getPrivate());
    assertThrows(
        IllegalStateException.class,
        () -> DpopSigner.requireMatchingPair(mixed, new SecureRandom()));
    DpopSigner signer = new DpopSigner(pair("EC"), new SecureRandom());
    assertThrows(
        IllegalArgumentException.class,
        () -> signer.proof("GET", URI.create("/relative"), null, null, NOW));
  }

  @Test
  void whenShownThenOnlyTheAlgorithmAndThumbprintAre() throws Exception {
    DpopSigner signer = new DpopSigner(pair("EC"), new SecureRandom());
    assertEquals("DpopSigner[ES256, jkt=" + signer.thumbprint() + "]", signer.toString());
    assertFalse(signer.toString().contains("\"d\""));
  }
}
