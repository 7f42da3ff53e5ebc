package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.EXPIRES_AT;
import static dev.platform.identity.verify.TestTokens.ISSUED_AT;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.key.MutableClock;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: the verified-token cache. A hit is the same {@link VerifiedToken} object as the call
 * that verified it; every hit re-checks the key behind the kid, the time and the scopes.
 */
class BearerVerifierCacheTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair OTHER_KEYS = TestTokens.rsaKeyPair();

  private final MutableClock clock = new MutableClock(NOW);

  /** The kid's current key; a test revokes it by setting null, or replaces it. */
  private final AtomicReference<PublicKey> current = new AtomicReference<>(KEYS.getPublic());

  private final BearerVerifier verifier = verifier(BearerVerifier.builder());

  private BearerVerifier verifier(BearerVerifier.Builder builder) {
    return builder
        .issuer(ISSUER)
        .clock(clock)
        .keyLocator(kid -> KID.equals(kid) ? Optional.ofNullable(current.get()) : Optional.empty())
        .build();
  }

  private static String token() {
    return TestTokens.signed(serviceAccount(), KEYS.getPrivate());
  }

  private String refusal(BearerVerifier verifier, String token) {
    return assertThrows(
            UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }

  @Test
  void whenTheSameTokenComesAgainThenTheVerifiedTokenIsRemembered() {
    String token = token();

    VerifiedToken first = verifier.verifyToken(token, List.of());
    VerifiedToken second = verifier.verify("Bearer " + token, List.of());

    assertSame(first, second);
    assertEquals(1, verifier.cachedTokens());
  }

  @Test
  void whenTheCacheIsOffThenEveryCallVerifiesAfresh() {
    BearerVerifier uncached = verifier(BearerVerifier.builder().cache(false));
    String token = token();

    assertNotSame(uncached.verifyToken(token, List.of()), uncached.verifyToken(token, List.of()));
    assertEquals(0, uncached.cachedTokens());
  }

  @Test
  void whenTheKeyIsRevokedThenTheRememberedTokenIsRefusedAtOnce() {
    String token = token();
    verifier.verifyToken(token, List.of());

    current.set(null);

    assertEquals("invalid token", refusal(verifier, token));
    assertEquals(0, verifier.cachedTokens());
  }

  @Test
  void whenTheKidNowNamesAnotherKeyThenTheRememberedTokenIsRefused() {
    String token = token();
    verifier.verifyToken(token, List.of());

    current.set(OTHER_KEYS.getPublic());

    assertEquals("invalid token", refusal(verifier, token));
  }

  @Test
  void whenTheRememberedTokenExpiresThenItIsRefusedAsExpired() {
    String token = token();
    verifier.verifyToken(token, List.of());

    clock.set(EXPIRES_AT.plusSeconds(60));
    assertEquals(CLIENT_ID, verifier.verifyToken(token, List.of()).clientId()); // within the skew
    clock.set(EXPIRES_AT.plusSeconds(60).plusMillis(1));

    assertEquals("token expired", refusal(verifier, token));
    assertEquals(0, verifier.cachedTokens());
  }

  @Test
  void whenTheClockGoesBackBeforeNbfThenTheRememberedTokenIsRefused() {
    String token = token();
    verifier.verifyToken(token, List.of());

    clock.set(ISSUED_AT.minusSeconds(61)); // nbf is ISSUED_AT, the skew 60 s

    assertEquals("invalid token", refusal(verifier, token));
  }

  @Test
  void whenACallRequiresAScopeTheTokenLacksThenAHitIsStillDenied() {
    String token = token();
    verifier.verifyToken(token, List.of("catalog:products.view"));

    AccessDeniedException denied =
        assertThrows(
            AccessDeniedException.class,
            () -> verifier.verifyToken(token, List.of("billing:invoices.read")));

    assertEquals(List.of("billing:invoices.read"), denied.missingScopes());
    assertEquals(1, verifier.cachedTokens());
  }

  @Test
  void whenATokenIsRefusedThenNothingIsRemembered() {
    String valid = token();
    String forged = TestTokens.signed(serviceAccount(), OTHER_KEYS.getPrivate());
    String resigned = valid.substring(0, valid.lastIndexOf('.') + 1) + "AAAA";
    String expired =
        TestTokens.signed(
            serviceAccount().expiration(TestTokens.secondsFromNow(-3600)), KEYS.getPrivate());

    for (int attempt = 0; attempt < 2; attempt++) {
      assertEquals("invalid token", refusal(verifier, forged));
      assertEquals("invalid token", refusal(verifier, resigned));
      assertEquals("token expired", refusal(verifier, expired));
    }

    assertEquals(0, verifier.cachedTokens());
  }

  @Test
  void whenOnlyTheSignatureOrThePayloadDiffersFromARememberedTokenThenItIsNoHit() {
    String valid = token();
    verifier.verifyToken(valid, List.of());
    String other =
        TestTokens.signed(serviceAccount().claim("scopes", List.of("a:*")), KEYS.getPrivate());
    int dot = valid.lastIndexOf('.');
    String payloadSwapped = other.substring(0, other.lastIndexOf('.')) + valid.substring(dot);
    String signatureSwapped = valid.substring(0, dot) + other.substring(other.lastIndexOf('.'));

    assertEquals("invalid token", refusal(verifier, payloadSwapped));
    assertEquals("invalid token", refusal(verifier, signatureSwapped));
  }

  @Test
  void whenMoreTokensThanTheCacheSizeVerifyThenTheCacheStaysWithinIt() {
    BearerVerifier small = verifier(BearerVerifier.builder().cacheSize(3));

    for (int i = 0; i < 20; i++) {
      String token = TestTokens.signed(serviceAccount().id("token-" + i), KEYS.getPrivate());
      assertEquals(CLIENT_ID, small.verifyToken(token, List.of()).clientId());
    }

    assertEquals(3, small.cachedTokens());
  }

  @Test
  void whenTheLocatorFailsOnAHitThenItsExceptionPropagates() {
    IllegalStateException down = new IllegalStateException("key source unreachable");
    AtomicReference<Boolean> failing = new AtomicReference<>(false);
    BearerVerifier flaky =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(clock)
            .keyLocator(
                kid -> {
                  if (failing.get()) {
                    throw down;
                  }
                  return Optional.of(KEYS.getPublic());
                })
            .build();
    String token = token();
    flaky.verifyToken(token, List.of());

    failing.set(true);

    assertSame(
        down, assertThrows(IllegalStateException.class, () -> flaky.verifyToken(token, List.of())));
  }

  @Test
  void whenEightThreadsVerifyTheSameTokensThenEachGetsTheRememberedClaims() throws Exception {
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      tokens.add(TestTokens.signed(serviceAccount().id("token-" + i), KEYS.getPrivate()));
    }
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Integer>> work = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        work.add(
            () -> {
              int verified = 0;
              for (int i = 0; i < 500; i++) {
                String token = tokens.get(i % tokens.size());
                verified +=
                    verifier.verifyToken(token, List.of()).clientId().equals(CLIENT_ID) ? 1 : 0;
              }
              return verified;
            });
      }
      int total = 0;
      for (Future<Integer> done : threads.invokeAll(work)) {
        total += done.get();
      }
      assertEquals(8 * 500, total);
    } finally {
      threads.shutdownNow();
    }
    assertEquals(4, verifier.cachedTokens());
  }

  @Test
  void whenTokensOfTwoKeysAlternateOnOneThreadThenEachStillVerifies() {
    // FleetIT found it: ACCP destroyed a translated key once its engine was given another key.
    BearerVerifier uncached =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(clock)
            .cache(false)
            .keyLocator(
                kid -> Optional.of(KID.equals(kid) ? KEYS.getPublic() : OTHER_KEYS.getPublic()))
            .build();
    String first = token();
    String second =
        TestTokens.signed(serviceAccount().header().keyId("other").and(), OTHER_KEYS.getPrivate());

    for (int round = 0; round < 3; round++) {
      assertEquals(CLIENT_ID, uncached.verifyToken(first, List.of()).clientId());
      assertEquals(CLIENT_ID, uncached.verifyToken(second, List.of()).clientId());
    }
  }

  @Test
  void whenTheCacheSizeIsNegativeThenTheBuilderRefusesIt() {
    assertThrows(IllegalArgumentException.class, () -> BearerVerifier.builder().cacheSize(-1));
  }

  @Test
  void whenAProviderWithoutRsaIsGivenThenBuildFails() {
    BearerVerifier.Builder builder =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .keyLocator(kid -> Optional.empty())
            .provider(java.security.Security.getProvider("SunJCE"));

    assertThrows(IllegalArgumentException.class, builder::build);
  }

  @Test
  void whenTheJdkProviderIsGivenThenItChecksTheSignatures() {
    BearerVerifier jdk =
        verifier(
            BearerVerifier.builder().provider(java.security.Security.getProvider("SunRsaSign")));

    assertEquals("SunRsaSign", jdk.signatureProvider());
    assertEquals(CLIENT_ID, jdk.verifyToken(token(), List.of()).clientId());
  }

  @Test
  void whenTheClockPassesExpAndTheSkewThenTheEntryIsDroppedUnasked() {
    verifier.verifyToken(token(), List.of());

    clock.set(EXPIRES_AT.plusSeconds(60));
    assertEquals(1, verifier.cachedTokens());
    // A lookup misses from the next millisecond on (the test above); Caffeine's timer wheel drops
    // an entry nobody asks for within about a second of its end.
    clock.set(EXPIRES_AT.plusSeconds(62));

    assertEquals(0, verifier.cachedTokens());
  }
}
