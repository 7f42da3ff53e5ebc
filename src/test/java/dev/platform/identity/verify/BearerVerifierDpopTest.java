package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestProofs.boundToKey;
import static dev.platform.identity.verify.TestProofs.claims;
import static dev.platform.identity.verify.TestProofs.es256;
import static dev.platform.identity.verify.TestProofs.header;
import static dev.platform.identity.verify.TestProofs.nimbus;
import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.jose.DpopNonces;
import dev.platform.identity.tls.TestPki;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 40 item 4: DPoP-bound tokens (RFC 9449 §7) at the verifier. A token whose {@code cnf.jkt}
 * names a key passes only as {@code Authorization: DPoP}, with one proof of that key for this
 * token, method and URI, fresh and never seen before; each attack the issue lists is refused, with
 * the challenge RFC 9449 §7.1 asks for.
 */
class BearerVerifierDpopTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair CLIENT_KEY = TestProofs.ecKeyPair();
  private static final KeyPair OTHER_KEY = TestProofs.ecKeyPair();
  private static final KeyPair RSA_CLIENT_KEY = TestTokens.rsaKeyPair();
  private static final URI ORDERS = URI.create("https://api.example.test/orders");

  private static final String TOKEN =
      TestTokens.signed(boundToKey(serviceAccount(), CLIENT_KEY), KEYS.getPrivate());
  private static final String OTHER_TOKEN =
      TestTokens.signed(
          boundToKey(serviceAccount().id("another-token"), CLIENT_KEY), KEYS.getPrivate());
  private static final String UNBOUND = TestTokens.signed(serviceAccount(), KEYS.getPrivate());

  private static final String DPOP_CHALLENGE_TAIL = "algs=\"ES256 RS256 PS256\"";

  private final BearerVerifier verifier = verifier(BearerVerifier.builder());

  private static BearerVerifier verifier(BearerVerifier.Builder builder) {
    return builder
        .issuer(ISSUER)
        .clock(CLOCK)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .build();
  }

  /** A fresh proof of the client's key for {@link #TOKEN}, {@code GET} {@link #ORDERS}. */
  private static String proof() {
    return nimbus(CLIENT_KEY, "GET", ORDERS, NOW, TOKEN);
  }

  private static DpopRequest get(String... proofs) {
    return new DpopRequest(List.of(proofs), "GET", ORDERS);
  }

  private VerifiedToken verify(String header, DpopRequest request) {
    return verifier.verify(header, request, null, List.of());
  }

  private UnauthenticatedException refusal(String header, DpopRequest request) {
    return refusal(verifier, header, request);
  }

  private static UnauthenticatedException refusal(
      BearerVerifier verifier, String header, DpopRequest request) {
    return assertThrows(
        UnauthenticatedException.class, () -> verifier.verify(header, request, null, List.of()));
  }

  /** A refused proof: 401 {@code invalid_dpop_proof} in the DPoP scheme alone. */
  private static void assertProofRefused(UnauthenticatedException e) {
    assertEquals(401, e.status());
    assertEquals(UnauthenticatedException.INVALID_DPOP_PROOF, e.error(), e.getMessage());
    assertTrue(
        e.challenge().startsWith("DPoP error=\"invalid_dpop_proof\", error_description=\""),
        e.challenge());
    assertTrue(e.challenge().endsWith(", " + DPOP_CHALLENGE_TAIL), e.challenge());
  }

  @Test
  void whenNimbusMakesAnEs256ProofForTheBoundTokenThenItPassesAndNamesTheKey() {
    VerifiedToken token = verify("DPoP " + TOKEN, get(proof()));

    assertEquals(CLIENT_ID, token.clientId());
    assertEquals(Optional.of(TestProofs.thumbprint(CLIENT_KEY)), token.keyThumbprint());
    assertEquals(Optional.empty(), token.certificateThumbprint());
  }

  @Test
  void whenNimbusMakesAnRs256ProofForATokenBoundToItsKeyThenItPasses() {
    String token =
        TestTokens.signed(boundToKey(serviceAccount(), RSA_CLIENT_KEY), KEYS.getPrivate());
    String proof = nimbus(RSA_CLIENT_KEY, "POST", ORDERS, NOW, token);

    VerifiedToken verified =
        verifier.verify(
            "DPoP " + token,
            new DpopRequest(List.of(proof), "POST", ORDERS),
            null,
            List.of("catalog:products.view"));

    assertEquals(Optional.of(TestProofs.thumbprint(RSA_CLIENT_KEY)), verified.keyThumbprint());
  }

  @ParameterizedTest
  @ValueSource(strings = {"dpop ", "DPOP ", "DpOp ", "DPoP   "})
  void whenTheSchemeIsSpelledInAnyCaseThenItIsDpop(String scheme) {
    assertEquals(CLIENT_ID, verify(scheme + TOKEN, get(proof())).clientId());
  }

  @ParameterizedTest
  @ValueSource(strings = {"DPoP-", "DPoPx ", "D-PoP ", "DPo ", "DPoP\t", "Dpop:", "DPoP,"})
  void whenTheSchemeIsGarbageThen401WithoutErrorCode(String scheme) {
    UnauthenticatedException e = refusal(scheme + TOKEN, get(proof()));

    assertEquals(UnauthenticatedException.UNSUPPORTED_SCHEMES, e.getMessage());
    assertEquals("Bearer, DPoP " + DPOP_CHALLENGE_TAIL, e.challenge());
  }

  @Test
  void whenTheSameProofIsSentAgainThenTheReplayIsRefused() {
    String proof = proof();
    verify("DPoP " + TOKEN, get(proof));

    UnauthenticatedException e = refusal("DPoP " + TOKEN, get(proof));

    assertProofRefused(e);
    assertTrue(e.getMessage().contains("already used"), e.getMessage());
  }

  @Test
  void whenTheTokenIsACacheHitThenEachCallStillNeedsItsOwnProof() {
    VerifiedToken first = verify("DPoP " + TOKEN, get(proof()));

    assertSame(first, verify("DPoP " + TOKEN, get(proof())));
    assertProofRefused(refusal("DPoP " + TOKEN, get()));
    assertEquals(
        UnauthenticatedException.DPOP_BOUND, refusal("Bearer " + TOKEN, get(proof())).getMessage());
    assertEquals(1, verifier.cachedTokens());
  }

  @Test
  void whenTheProofIsForAnotherUrlOrMethodThenRefused() {
    assertProofRefused(
        refusal(
            "DPoP " + TOKEN,
            get(
                nimbus(
                    CLIENT_KEY, "GET", URI.create("https://api.example.test/admin"), NOW, TOKEN))));
    assertProofRefused(
        refusal(
            "DPoP " + TOKEN,
            get(nimbus(CLIENT_KEY, "GET", URI.create("https://evil.example/orders"), NOW, TOKEN))));
    assertProofRefused(
        refusal("DPoP " + TOKEN, get(nimbus(CLIENT_KEY, "DELETE", ORDERS, NOW, TOKEN))));
  }

  @Test
  void whenTheProofIsTooOldOrFromTheFutureThenRefused() {
    UnauthenticatedException old =
        refusal(
            "DPoP " + TOKEN, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW.minusSeconds(61), TOKEN)));
    UnauthenticatedException ahead =
        refusal(
            "DPoP " + TOKEN, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW.plusSeconds(11), TOKEN)));

    assertProofRefused(old);
    assertTrue(old.getMessage().contains("old"), old.getMessage());
    assertProofRefused(ahead);
    assertTrue(ahead.getMessage().contains("future"), ahead.getMessage());
  }

  @Test
  void whenTheProofIsSignedByAnotherKeyThanItsJwkThenRefused() {
    String proof =
        es256(OTHER_KEY.getPrivate(), header(CLIENT_KEY), claims("GET", ORDERS, NOW, TOKEN));

    UnauthenticatedException e = refusal("DPoP " + TOKEN, get(proof));

    assertProofRefused(e);
    assertTrue(e.getMessage().contains("not signed by the key in its jwk"), e.getMessage());
  }

  @Test
  void whenTheProofCarriesAPrivateJwkThenRefused() {
    Map<String, Object> header = header(CLIENT_KEY);
    header.put("jwk", TestProofs.jwk(CLIENT_KEY).toJSONObject()); // with "d"
    String proof = es256(CLIENT_KEY.getPrivate(), header, claims("GET", ORDERS, NOW, TOKEN));

    UnauthenticatedException e = refusal("DPoP " + TOKEN, get(proof));

    assertProofRefused(e);
    assertTrue(e.getMessage().contains("private member 'd'"), e.getMessage());
  }

  @Test
  void whenTheProofIsUnsignedOrHs256ThenRefused() throws Exception {
    Map<String, Object> none = header(CLIENT_KEY);
    none.put("alg", "none");
    Map<String, Object> claims = claims("GET", ORDERS, NOW, TOKEN);
    Map<String, Object> hs256 = header(CLIENT_KEY);
    hs256.put("alg", "HS256");
    String input = TestProofs.encode(hs256) + "." + TestProofs.encode(claims);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(TOKEN.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
    String mac256 =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));

    assertProofRefused(refusal("DPoP " + TOKEN, get(TestProofs.unsigned(none, claims, ""))));
    assertProofRefused(refusal("DPoP " + TOKEN, get(input + "." + mac256)));
  }

  @Test
  void whenADpopBoundTokenIsSentAsBearerThen401InvalidTokenWithBothChallenges() {
    UnauthenticatedException e = refusal("Bearer " + TOKEN, get(proof()));

    assertEquals(UnauthenticatedException.DPOP_BOUND, e.getMessage());
    assertEquals("Bearer error=\"invalid_token\", DPoP " + DPOP_CHALLENGE_TAIL, e.challenge());
  }

  @Test
  void whenADpopBoundTokenGoesThroughTheBearerOnlyMethodsThenItIsRefused() {
    assertEquals(
        UnauthenticatedException.DPOP_BOUND,
        assertThrows(
                UnauthenticatedException.class, () -> verifier.verify("Bearer " + TOKEN, List.of()))
            .getMessage());
    assertEquals(
        UnauthenticatedException.DPOP_BOUND,
        assertThrows(UnauthenticatedException.class, () -> verifier.verifyToken(TOKEN, List.of()))
            .getMessage());
    assertEquals(
        UnauthenticatedException.UNSUPPORTED_SCHEME,
        assertThrows(
                UnauthenticatedException.class, () -> verifier.verify("DPoP " + TOKEN, List.of()))
            .getMessage());
    assertEquals(
        Optional.of(TestProofs.thumbprint(CLIENT_KEY)),
        verifier.inspectToken(TOKEN).keyThumbprint());
  }

  @Test
  void whenTheProofCarriesAnotherTokensAthThenRefused() {
    UnauthenticatedException e =
        refusal("DPoP " + TOKEN, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW, OTHER_TOKEN)));

    assertProofRefused(e);
    assertTrue(e.getMessage().contains("ath"), e.getMessage());
  }

  @Test
  void whenTheProofIsOfAnotherKeyThanTheTokensThenRefused() {
    UnauthenticatedException e =
        refusal("DPoP " + TOKEN, get(nimbus(OTHER_KEY, "GET", ORDERS, NOW, TOKEN)));

    assertProofRefused(e);
    assertEquals(UnauthenticatedException.DPOP_KEY_MISMATCH, e.getMessage());
  }

  @Test
  void whenAnUnboundTokenIsSentAsDpopThenRefused() {
    UnauthenticatedException e =
        refusal("DPoP " + UNBOUND, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW, UNBOUND)));

    assertEquals(UnauthenticatedException.DPOP_UNBOUND, e.getMessage());
    assertTrue(e.challenge().startsWith("DPoP error=\"invalid_token\""), e.challenge());
  }

  @Test
  void whenAnUnboundTokenIsSentAsBearerThenItStillPasses() {
    assertEquals(CLIENT_ID, verify("Bearer " + UNBOUND, get()).clientId());
  }

  @Test
  void whenThereIsNoTokenThen401() {
    UnauthenticatedException noHeader = refusal(null, get(proof()));
    UnauthenticatedException noToken = refusal("DPoP", get(proof()));
    UnauthenticatedException blank = refusal("DPoP   ", get(proof()));

    assertEquals("Bearer, DPoP " + DPOP_CHALLENGE_TAIL, noHeader.challenge());
    assertEquals(UnauthenticatedException.MISSING_TOKEN, noToken.getMessage());
    assertTrue(noToken.challenge().startsWith("DPoP error=\"invalid_token\""));
    assertEquals(UnauthenticatedException.MISSING_TOKEN, blank.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"garbage", "a.b.c", "FORGED", "OTHER_ISSUER"})
  void whenTheTokenIsWrongThen401InvalidTokenAndTheProofIsNotTaken(String kind) {
    String token =
        switch (kind) {
          case "FORGED" ->
              TestTokens.signed(
                  boundToKey(serviceAccount(), CLIENT_KEY), TestTokens.rsaKeyPair().getPrivate());
          case "OTHER_ISSUER" ->
              TestTokens.signed(
                  boundToKey(serviceAccount().issuer("https://evil.example"), CLIENT_KEY),
                  KEYS.getPrivate());
          default -> kind;
        };
    String proof = nimbus(CLIENT_KEY, "GET", ORDERS, NOW, token);

    UnauthenticatedException e = refusal("DPoP " + token, get(proof));

    assertEquals(UnauthenticatedException.INVALID_TOKEN_ERROR, e.error());
    assertTrue(e.challenge().startsWith("DPoP error=\"invalid_token\""), e.challenge());
    assertEquals(0, verifier.dpopProofsHeld());
  }

  @Test
  void whenTwoDpopHeadersComeThenRefusedEvenIfBothAreGood() {
    assertProofRefused(refusal("DPoP " + TOKEN, get(proof(), proof())));
    assertProofRefused(refusal("DPoP " + TOKEN, get()));
  }

  @Test
  void whenUniqueProofsFloodThenTheReplayCacheStaysBoundedAndRefusesRatherThanForgets() {
    BearerVerifier small = verifier(BearerVerifier.builder().dpopReplayCacheSize(3));
    List<String> taken = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String proof = proof();
      small.verify("DPoP " + TOKEN, get(proof), null, List.of());
      taken.add(proof);
    }
    for (int i = 0; i < 50; i++) {
      UnauthenticatedException busy = refusal(small, "DPoP " + TOKEN, get(proof()));
      assertTrue(busy.getMessage().contains("too many recent DPoP proofs"), busy.getMessage());
    }

    assertEquals(3, small.dpopProofsHeld());
    for (String proof : taken) {
      assertTrue(refusal(small, "DPoP " + TOKEN, get(proof)).getMessage().contains("already used"));
    }
  }

  @Test
  void whenProofsFloodWithoutAGoodTokenOrKeyThenNothingIsHeld() {
    for (int i = 0; i < 200; i++) {
      refusal("DPoP " + TOKEN, get(nimbus(OTHER_KEY, "GET", ORDERS, NOW, TOKEN)));
      refusal("DPoP " + UNBOUND, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW, UNBOUND)));
    }

    assertEquals(0, verifier.dpopProofsHeld());
  }

  @Test
  void whenNoncesAreAskedThenAProofWithoutOneGetsUseDpopNonceAndTheNonce() {
    DpopNonces nonces = DpopNonces.random(CLOCK, Duration.ofMinutes(5));
    BearerVerifier asking = verifier(BearerVerifier.builder().dpopNonces(nonces));

    UnauthenticatedException e = refusal(asking, "DPoP " + TOKEN, get(proof()));

    assertEquals(UnauthenticatedException.USE_DPOP_NONCE, e.error());
    assertTrue(e.challenge().startsWith("DPoP error=\"use_dpop_nonce\""), e.challenge());
    assertEquals(Optional.of(nonces.current()), e.dpopNonce());
    String withNonce = nimbus(CLIENT_KEY, "GET", ORDERS, NOW, TOKEN, nonces.current());
    assertEquals(
        CLIENT_ID, asking.verify("DPoP " + TOKEN, get(withNonce), null, List.of()).clientId());
    String wrongNonce = nimbus(CLIENT_KEY, "GET", ORDERS, NOW, TOKEN, "AAAAAAAAAAAAAAAAAAAAAA");
    assertEquals(
        UnauthenticatedException.USE_DPOP_NONCE,
        refusal(asking, "DPoP " + TOKEN, get(wrongNonce)).error());
  }

  @Test
  void whenADpopTokenLacksAScopeThen403InTheDpopScheme() {
    AccessDeniedException e =
        assertThrows(
            AccessDeniedException.class,
            () -> verifier.verify("DPoP " + TOKEN, get(proof()), null, List.of("billing:x")));

    assertEquals(
        "DPoP error=\"insufficient_scope\", scope=\"billing:x\", " + DPOP_CHALLENGE_TAIL,
        e.challenge());
  }

  @Test
  void whenATokenIsBoundToAKeyAndACertificateThenItNeedsBoth() {
    X509Certificate client = TestPki.authority("DPoP CA").client("CN=orders").certificate();
    String token =
        TestTokens.signed(
            serviceAccount()
                .claim(
                    "cnf",
                    Map.of(
                        "jkt",
                        TestProofs.thumbprint(CLIENT_KEY),
                        "x5t#S256",
                        CertificateThumbprint.of(client))),
            KEYS.getPrivate());

    VerifiedToken verified =
        verifier.verify(
            "DPoP " + token, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW, token)), client, List.of());

    assertTrue(verified.certificateThumbprint().isPresent());
    assertTrue(verified.keyThumbprint().isPresent());
    assertEquals(
        UnauthenticatedException.CERTIFICATE_MISSING,
        refusal("DPoP " + token, get(nimbus(CLIENT_KEY, "GET", ORDERS, NOW, token))).getMessage());
  }
}
