package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.secondsFromNow;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jsonwebtoken.JwtBuilder;
import io.jsonwebtoken.JwtException;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Keys;
import io.jsonwebtoken.security.SignatureAlgorithm;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class BearerVerifierTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair FOREIGN_KEYS = TestTokens.rsaKeyPair();
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  /** Counts look-ups, so a test can show a token was refused before any key was looked for. */
  private final AtomicInteger lookups = new AtomicInteger();

  private final BearerVerifier verifier =
      BearerVerifier.builder()
          .issuer(ISSUER)
          .clock(CLOCK)
          .keyLocator(
              kid -> {
                lookups.incrementAndGet();
                return KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty();
              })
          .build();

  private static String signed(JwtBuilder token) {
    return TestTokens.signed(token, KEYS.getPrivate());
  }

  private UnauthenticatedException unauthenticated(String token) {
    return assertThrows(
        UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()));
  }

  private UnauthenticatedException unauthenticatedHeader(String header) {
    return assertThrows(UnauthenticatedException.class, () -> verifier.verify(header, List.of()));
  }

  private static String base64url(String json) {
    return BASE64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  /** The token with its header replaced by {@code headerJson}, its signature kept. */
  private static String withHeader(String token, String headerJson) {
    return base64url(headerJson) + token.substring(token.indexOf('.'));
  }

  // --- a valid token --------------------------------------------------------------------------

  @Test
  void whenTokenIsValidThenItsClaimsAreTyped() {
    VerifiedToken token =
        verifier.verify("Bearer " + signed(serviceAccount()), List.of("catalog:products.view"));

    assertEquals(CLIENT_ID, token.clientId());
    assertEquals(Optional.of(CLIENT_ID), token.subject());
    assertEquals(ISSUER, token.issuer());
    assertEquals(TestTokens.SCOPES, token.scopes());
    assertEquals(Optional.of("org-a"), token.organizationId());
    assertEquals(List.of("org-a", "org-b"), token.accessibleOrgs());
    assertEquals(Optional.of("service_account"), token.tokenType());
    assertEquals(
        new ChannelPermissions(
            List.of("catalog.products.*", "marketing.*"),
            List.of("marketing.*"),
            List.of("catalog.products.*", "marketing.*")),
        token.channelPermissions());
    assertEquals(TestTokens.EXPIRES_AT, token.expiresAt());
    assertEquals(Optional.of(TestTokens.ISSUED_AT), token.issuedAt());
    assertEquals(Optional.of(TestTokens.TOKEN_ID), token.tokenId());
  }

  @Test
  void whenNoScopeIsRequiredThenAValidTokenPasses() {
    assertEquals(CLIENT_ID, verifier.verifyToken(signed(serviceAccount()), List.of()).clientId());
  }

  // --- SPEC 5.4 step 1: exp (and nbf), with skew ----------------------------------------------

  @Test
  void whenExpiredBeyondTheSkewThenUnauthenticatedExpired() {
    String token = signed(serviceAccount().expiration(secondsFromNow(-61)));

    UnauthenticatedException e = unauthenticated(token);

    assertEquals("token expired", e.getMessage());
    assertEquals(401, e.status());
    assertEquals("Bearer error=\"invalid_token\"", e.challenge());
  }

  @Test
  void whenExpiredWithinTheSkewThenAccepted() {
    String token = signed(serviceAccount().expiration(secondsFromNow(-59)));

    assertEquals(CLIENT_ID, verifier.verifyToken(token, List.of()).clientId());
  }

  @Test
  void whenSkewIsZeroThenAJustExpiredTokenIsRefused() {
    BearerVerifier strict =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(kid -> Optional.of(KEYS.getPublic()))
            .allowedClockSkew(Duration.ZERO)
            .build();
    String token = signed(serviceAccount().expiration(secondsFromNow(-1)));

    assertThrows(UnauthenticatedException.class, () -> strict.verifyToken(token, List.of()));
  }

  @Test
  void whenNotBeforeIsBeyondTheSkewThenUnauthenticatedInvalid() {
    String token = signed(serviceAccount().notBefore(secondsFromNow(61)));

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  @Test
  void whenNotBeforeIsWithinTheSkewThenAccepted() {
    String token = signed(serviceAccount().notBefore(secondsFromNow(59)));

    assertEquals(CLIENT_ID, verifier.verifyToken(token, List.of()).clientId());
  }

  @Test
  void whenTokenHasNoExpThenUnauthenticatedInvalid() {
    String token = signed(serviceAccount().expiration(null));

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  // --- the order of steps 1 to 3 --------------------------------------------------------------

  @Test
  void whenExpiredAndBadlySignedThenInvalidNotExpired() {
    String forged =
        TestTokens.signed(
            serviceAccount().expiration(secondsFromNow(-3600)), FOREIGN_KEYS.getPrivate());

    assertEquals("invalid token", unauthenticated(forged).getMessage());
  }

  @Test
  void whenExpiredAndFromAnotherIssuerThenExpiredFirst() {
    String token =
        signed(serviceAccount().expiration(secondsFromNow(-3600)).issuer("https://evil.test"));

    assertEquals("token expired", unauthenticated(token).getMessage());
  }

  // --- SPEC 5.4 step 2: RS256 by the key of the header's kid ----------------------------------

  @Test
  void whenAlgIsNoneWithoutSignatureThenUnauthenticated() {
    String unsecured = serviceAccount().compact(); // JJWT makes "header.payload." without a key

    assertTrue(unsecured.endsWith("."), unsecured);
    unauthenticated(unsecured);
    assertEquals(0, lookups.get());
  }

  @Test
  void whenAlgIsNoneWithASignatureThenJjwtRefusesIt() {
    String token =
        withHeader(
            signed(serviceAccount()), "{\"alg\":\"none\",\"typ\":\"JWT\",\"kid\":\"" + KID + "\"}");

    assertEquals("invalid token", unauthenticated(token).getMessage());
    assertEquals(0, lookups.get());
  }

  @Test
  void whenHs256IsSignedWithThePublicKeyBytesThenUnauthenticated() {
    // The classic algorithm confusion: the verifier's own public key used as an HMAC secret.
    String token =
        serviceAccount()
            .signWith(Keys.hmacShaKeyFor(KEYS.getPublic().getEncoded()), Jwts.SIG.HS256)
            .compact();

    assertEquals("invalid token", unauthenticated(token).getMessage());
    assertEquals(0, lookups.get(), "refused on the algorithm, before any key is looked for");
  }

  @Test
  void whenHs256IsSignedWithThePemOfThePublicKeyThenUnauthenticated() throws Exception {
    String pem = pem(KEYS.getPublic());
    String signingInput =
        base64url("{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"" + KID + "\"}")
            + signed(serviceAccount()).replaceAll("^[^.]*(\\.[^.]*)\\..*$", "$1");
    Mac hmac = Mac.getInstance("HmacSHA256");
    hmac.init(new SecretKeySpec(pem.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
    String token =
        signingInput
            + "."
            + BASE64URL.encodeToString(
                hmac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  @Test
  void whenAnRsaKeyIsLocatedForAnHs256TokenEvenJjwtDefaultsRefuseIt() {
    // Without our RS256-only restriction, JJWT still refuses an HMAC check with an RSA key.
    String token =
        serviceAccount()
            .signWith(Keys.hmacShaKeyFor(KEYS.getPublic().getEncoded()), Jwts.SIG.HS256)
            .compact();
    JwtParser defaults =
        Jwts.parser()
            .keyLocator(header -> KEYS.getPublic())
            .clock(() -> Date.from(TestTokens.NOW))
            .build();

    assertThrows(JwtException.class, () -> defaults.parseSignedClaims(token));
  }

  static Stream<SignatureAlgorithm> otherRsaAlgorithms() {
    return Stream.of(Jwts.SIG.RS384, Jwts.SIG.RS512, Jwts.SIG.PS256, Jwts.SIG.PS384);
  }

  @ParameterizedTest
  @MethodSource("otherRsaAlgorithms")
  void whenSignedWithTheRightKeyButAnotherRsaAlgorithmThenUnauthenticated(
      SignatureAlgorithm algorithm) {
    String token = serviceAccount().signWith(KEYS.getPrivate(), algorithm).compact();

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  @Test
  void whenAForeignKeySignsWithAKnownKidThenUnauthenticatedInvalid() {
    String token = TestTokens.signed(serviceAccount(), FOREIGN_KEYS.getPrivate());

    assertEquals("invalid token", unauthenticated(token).getMessage());
    assertEquals(1, lookups.get());
  }

  @Test
  void whenTheSignatureOfAValidTokenIsChangedThenUnauthenticated() {
    String token = signed(serviceAccount());
    String other = signed(serviceAccount().claim("scopes", List.of("identity:admin")));
    String spliced =
        other.substring(0, other.lastIndexOf('.')) + token.substring(token.lastIndexOf('.'));

    assertEquals("invalid token", unauthenticated(spliced).getMessage());
  }

  @Test
  void whenKidIsUnknownThenUnauthenticatedInvalid() {
    String token = signed(serviceAccount().header().keyId("key-1999-01").and());

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  @Test
  void whenKidIsMissingThenUnauthenticatedWithoutLookingForAKey() {
    String token = signed(serviceAccount().header().keyId(null).and());

    assertEquals("invalid token", unauthenticated(token).getMessage());
    assertEquals(0, lookups.get());
  }

  @Test
  void whenTheLocatorFailsThenItsExceptionPropagates() {
    IllegalStateException down = new IllegalStateException("key source unreachable");
    BearerVerifier failing =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(
                kid -> {
                  throw down;
                })
            .build();
    String token = signed(serviceAccount());

    assertSame(
        down,
        assertThrows(IllegalStateException.class, () -> failing.verifyToken(token, List.of())));
  }

  @Test
  void whenTheLocatedKeyIsShorterThan2048BitsThenUnauthenticated() throws Exception {
    // JJWT will not sign RS256 with a short key, so the JDK signs this one.
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(1024);
    KeyPair weak = generator.generateKeyPair();
    String valid = signed(serviceAccount());
    String signingInput = valid.substring(0, valid.lastIndexOf('.'));
    Signature rsa = Signature.getInstance("SHA256withRSA");
    rsa.initSign(weak.getPrivate());
    rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
    String token = signingInput + "." + BASE64URL.encodeToString(rsa.sign());
    BearerVerifier weakKeys =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(kid -> Optional.of(weak.getPublic()))
            .build();

    assertThrows(UnauthenticatedException.class, () -> weakKeys.verifyToken(token, List.of()));
  }

  // --- SPEC 5.4 step 3: iss -------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://evil.test",
        ISSUER + "/",
        "HTTPS://IDENTITY.EXAMPLE.TEST",
        ISSUER + " ",
        "https://identity.example.test.evil.test"
      })
  void whenIssuerDiffersThenUnauthenticatedInvalid(String issuer) {
    String token = signed(serviceAccount().issuer(issuer));

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  @Test
  void whenIssuerIsMissingThenUnauthenticatedInvalid() {
    String token = signed(serviceAccount().issuer(null));

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  // --- SPEC 5.4 step 4: scopes ----------------------------------------------------------------

  @Test
  void whenARequiredScopeIsMissingThenAccessDeniedNamingIt() {
    String token = signed(serviceAccount());

    AccessDeniedException e =
        assertThrows(
            AccessDeniedException.class,
            () ->
                verifier.verifyToken(
                    token, List.of("catalog:products.view", "kitchen:orders.create")));

    assertEquals(403, e.status());
    assertEquals(List.of("kitchen:orders.create"), e.missingScopes());
    assertEquals("insufficient scope: requires kitchen:orders.create", e.getMessage());
    assertEquals(
        "Bearer error=\"insufficient_scope\", scope=\"kitchen:orders.create\"", e.challenge());
  }

  @Test
  void whenAWildcardScopeIsGrantedThenItCoversItsService() {
    String token = signed(serviceAccount());

    VerifiedToken verified =
        verifier.verifyToken(
            token, List.of("marketing:*", "marketing:content.view", "marketing:offers.view"));

    assertTrue(verified.hasScope("marketing:circulars.view"));
  }

  @Test
  void whenOnlyAnotherServicesWildcardIsGrantedThenAccessDenied() {
    String token = signed(serviceAccount().claim("scopes", List.of("catalog:*")));

    AccessDeniedException e =
        assertThrows(
            AccessDeniedException.class,
            () -> verifier.verifyToken(token, List.of("catalogue:products.view", "marketing:*")));

    assertEquals(List.of("catalogue:products.view", "marketing:*"), e.missingScopes());
  }

  @Test
  void whenScopesClaimIsNotAnArrayOfStringsThenUnauthenticatedInvalid() {
    String token = signed(serviceAccount().claim("scopes", "catalog:products.view"));

    assertEquals("invalid token", unauthenticated(token).getMessage());
  }

  // --- SPEC 5.7: organization -----------------------------------------------------------------

  @Test
  void whenTheTargetOrganizationIsNotAccessibleThenAccessDenied() {
    VerifiedToken token = verifier.verifyToken(signed(serviceAccount()), List.of());

    token.requireOrganization("org-a");
    token.requireOrganization("org-b");
    AccessDeniedException e =
        assertThrows(AccessDeniedException.class, () -> token.requireOrganization("org-c"));

    assertEquals(403, e.status());
    assertEquals(List.of(), e.missingScopes());
    assertEquals("Bearer error=\"insufficient_scope\"", e.challenge());
  }

  // --- the Authorization header (SPEC 5.3, RFC 6750 §2.1) -------------------------------------

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"   ", "\t"})
  void whenAuthorizationHeaderIsMissingThenUnauthenticatedWithoutErrorCode(String header) {
    UnauthenticatedException e = unauthenticatedHeader(header);

    assertEquals("missing Authorization header", e.getMessage());
    assertEquals("Bearer", e.challenge());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Basic Y2xpZW50OnNlY3JldA==",
        "Digest username=\"client\"",
        "Token abc.def.ghi",
        "Bearer,abc.def.ghi",
        "Bearerabc.def.ghi"
      })
  void whenAnotherSchemeIsUsedThenUnauthenticated(String header) {
    UnauthenticatedException e = unauthenticatedHeader(header);

    assertEquals("unsupported authorization scheme: use Bearer", e.getMessage());
    assertEquals("Bearer", e.challenge());
  }

  @ParameterizedTest
  @ValueSource(strings = {"Bearer", "Bearer ", "bearer    "})
  void whenBearerHasNoTokenThenUnauthenticated(String header) {
    assertEquals("missing bearer token", unauthenticatedHeader(header).getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"bearer ", "BEARER ", "BeArEr ", "Bearer   ", " Bearer "})
  void whenSchemeHasAnyCaseOrExtraSpacesThenTheTokenIsVerified(String prefix) {
    VerifiedToken token = verifier.verify(prefix + signed(serviceAccount()), List.of());

    assertEquals(CLIENT_ID, token.clientId());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Bearer abc",
        "Bearer a.b",
        "Bearer a.b.c.d.e",
        "Bearer a..c",
        "Bearer a.b.c=",
        "Bearer a.b.c d",
        "Bearer \ta.b.c",
        "Bearer a+b.c/d.e"
      })
  void whenTokenIsMalformedThenUnauthenticated(String header) {
    assertEquals("malformed bearer token", unauthenticatedHeader(header).getMessage());
  }

  @Test
  void whenTokenWellFormedButNotJsonThenUnauthenticatedInvalid() {
    assertEquals("invalid token", unauthenticated("abc.def.ghi").getMessage());
  }

  @Test
  void whenTokenIsLongerThanTheLimitThenMalformedBeforeParsing() {
    String padded =
        signed(serviceAccount().claim("padding", "x".repeat(BearerVerifier.MAX_TOKEN_LENGTH)));

    assertEquals("malformed bearer token", unauthenticated(padded).getMessage());
    assertEquals(0, lookups.get());
  }

  @Test
  void whenTheHeaderHoldsAValidTokenThenItIsVerifiedLikeTheRawToken() {
    String token = signed(serviceAccount());

    assertEquals(
        verifier.verifyToken(token, List.of()).toString(),
        verifier.verify("Bearer " + token, List.of()).toString());
  }

  // --- the builder and immutability -----------------------------------------------------------

  @Test
  void whenIssuerOrKeysAreMissingThenBuildFails() {
    assertThrows(
        IllegalStateException.class,
        () -> BearerVerifier.builder().keyLocator(kid -> Optional.empty()).build());
    assertThrows(
        IllegalStateException.class, () -> BearerVerifier.builder().issuer(ISSUER).build());
    assertThrows(IllegalArgumentException.class, () -> BearerVerifier.builder().issuer(" "));
  }

  @Test
  void whenSkewIsNegativeOrFractionalThenBuilderRefusesIt() {
    BearerVerifier.Builder builder = BearerVerifier.builder();

    assertThrows(
        IllegalArgumentException.class, () -> builder.allowedClockSkew(Duration.ofSeconds(-1)));
    assertThrows(
        IllegalArgumentException.class, () -> builder.allowedClockSkew(Duration.ofMillis(1500)));
  }

  @ParameterizedTest
  @ValueSource(
      classes = {
        BearerVerifier.class,
        VerifiedToken.class,
        ChannelPermissions.class,
        UnauthenticatedException.class,
        AccessDeniedException.class
      })
  void whenBuiltThenEveryFieldIsFinal(Class<?> type) {
    for (Field field : type.getDeclaredFields()) {
      assertTrue(
          Modifier.isFinal(field.getModifiers()), type.getSimpleName() + "." + field.getName());
    }
    assertTrue(Modifier.isFinal(type.getModifiers()), type.getSimpleName());
  }

  @Test
  void whenRejectedThenTheMessageNeverCarriesTheToken() {
    String token = TestTokens.signed(serviceAccount(), FOREIGN_KEYS.getPrivate());

    UnauthenticatedException e = unauthenticatedHeader("Bearer " + token);

    assertFalse(e.getMessage().contains(token.substring(0, 20)));
    assertFalse(e.toString().contains(KID));
  }

  private static String pem(PublicKey key) {
    return "-----BEGIN PUBLIC KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(key.getEncoded())
        + "\n-----END PUBLIC KEY-----\n";
  }

  @Test
  void whenClaimsUseTheChannelAliasOnlyThenItIsRead() {
    String token =
        signed(
            serviceAccount()
                .claim("channel_permissions", null)
                .claim("cs_permissions", Map.of("subscribe", List.of("catalog.*"))));

    assertEquals(
        new ChannelPermissions(List.of("catalog.*"), List.of(), List.of()),
        verifier.verifyToken(token, List.of()).channelPermissions());
  }
}
