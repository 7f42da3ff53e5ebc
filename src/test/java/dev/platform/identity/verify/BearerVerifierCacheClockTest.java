package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.EXPIRES_AT;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.key.MutableClock;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The attacker review of issue 23: what a cache hit must not skip, and what a forger can do to the
 * cache.
 */
class BearerVerifierCacheClockTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair FOREIGN_KEYS = TestTokens.rsaKeyPair();

  private final MutableClock clock = new MutableClock(NOW);

  private BearerVerifier.Builder builder() {
    return BearerVerifier.builder()
        .issuer(ISSUER)
        .clock(clock)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty());
  }

  private static String refusal(BearerVerifier verifier, String token) {
    return assertThrows(
            UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }

  /**
   * Found by the attacker review, fixed since: the cold path refuses an exp further ahead than the
   * longest lifetime plus the skew; a hit does not check it again, so after the clock steps back an
   * hour a remembered token (here without nbf, which would otherwise catch part of it) passes that
   * a fresh verifier refuses.
   */
  @Test
  void whenTheClockStepsBackThenAHitStillBoundsExpByTheLongestLifetime() {
    BearerVerifier cached = builder().build();
    BearerVerifier uncached = builder().cache(false).build();
    String token = TestTokens.signed(serviceAccount().notBefore(null), KEYS.getPrivate());
    cached.verifyToken(token, List.of());

    clock.set(NOW.minus(Duration.ofHours(1))); // exp is now 24 h 50 min ahead

    assertEquals("invalid token", refusal(uncached, token));
    assertEquals("invalid token", refusal(cached, token));
  }

  /**
   * Found by the attacker review, fixed since: the cache's ticker reads {@code builder.clock}, not
   * the verifier's own clock, so a second verifier built from the same builder with another clock
   * moves the first one's cache time (here it stops it: the first verifier's entries never leave
   * memory). It also keeps the builder reachable.
   */
  @Test
  void whenTheBuilderIsReusedThenTheFirstVerifiersCacheKeepsItsOwnClock() {
    BearerVerifier.Builder builder = builder();
    BearerVerifier first = builder.build();
    builder.clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
    first.verifyToken(TestTokens.signed(serviceAccount(), KEYS.getPrivate()), List.of());

    clock.set(EXPIRES_AT.plusSeconds(62));

    assertEquals(0, first.cachedTokens());
  }

  /**
   * Refused: forged tokens that end like a remembered token (same hash bucket, same length or not)
   * are no hit, are refused, and are not remembered.
   */
  @Test
  void whenForgedTokensEndLikeARememberedOneThenTheyAreRefusedAndNotRemembered() {
    BearerVerifier verifier = builder().build();
    String genuine = TestTokens.signed(serviceAccount(), KEYS.getPrivate());
    verifier.verifyToken(genuine, List.of());
    String ending = genuine.substring(genuine.length() - 16);

    for (int i = 0; i < 200; i++) {
      String forged =
          TestTokens.signed(
              serviceAccount().claim("scopes", List.of("admin:" + i)), FOREIGN_KEYS.getPrivate());
      String sameEnd = forged.substring(0, forged.length() - 16) + ending;
      String sameLength =
          sameEnd.length() == genuine.length()
              ? sameEnd
              : genuine.substring(0, genuine.indexOf('.') + 1)
                  + "e30"
                  + genuine.substring(genuine.indexOf('.') + 4);
      assertEquals("invalid token", refusal(verifier, sameEnd));
      assertEquals("invalid token", refusal(verifier, sameLength));
    }

    assertEquals(1, verifier.cachedTokens());
    assertEquals(CLIENT_ID, verifier.verifyToken(genuine, List.of()).clientId());
  }
}
