package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.key.TestNodes;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 on the token path: private_key_jwt clients (RFC 7523), every rule of the assertion, the
 * jti's single use, and what a stranger is told. Assertions are made by Nimbus JOSE+JWT; time is a
 * fixed clock moved by the test.
 */
class PrivateKeyJwtTokenTest {
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final String FORM = "application/x-www-form-urlencoded";
  static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
  static final KeyPair RSA = pair("RSA");
  static final KeyPair OTHER_RSA = pair("RSA");
  static final KeyPair EC = pair("EC");

  final Settings settings = TestNodes.settings();
  final DataSource data = TestDatabases.h2DataSource("pkjwt-" + UUID.randomUUID());
  final TestNodes.Node node = TestNodes.node(data, settings, Clock.systemUTC());
  final MutableClock clock = new MutableClock(START);
  final SecretDigest digest = new SecretDigest(settings.secretPepper());
  final ServiceAccounts accounts = new ServiceAccounts(node.database());
  final LogCapture audit = LogCapture.of(AuditLog.LOGGER);
  final String tokenEndpoint = settings.issuer() + "/oauth/token";
  final List<String> fetched = new java.util.concurrent.CopyOnWriteArrayList<>();
  volatile java.util.function.BiFunction<URI, Boolean, ClientJwks> published =
      (uri, refresh) -> {
        throw new IllegalStateException("no published sets here");
      };
  final TokenServlet endpoint =
      new TokenServlet(
          new ClientAuthenticator(
              accounts,
              digest,
              clock,
              Optional.empty(),
              new ClientAuthenticator.Assertions(
                  settings.issuer(),
                  new UsedAssertions(data),
                  (uri, refresh) -> published.apply(uri, refresh))),
          new dev.platform.identity.scope.ScopeCatalog(node.database()),
          TestEndpoints.issuer(node, settings),
          new AuditLog(clock));

  static KeyPair pair(String algorithm) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      if (algorithm.equals("EC")) {
        generator.initialize(new ECGenParameterSpec("secp256r1"));
      } else {
        generator.initialize(2048);
      }
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeEach
  void startKeys() {
    node.rotation().start();
  }

  @AfterEach
  void close() {
    audit.close();
    node.close();
  }

  /** An active private_key_jwt account holding the RSA key "r" and the EC key "e". */
  UUID keyAccount() throws Exception {
    return keyAccount(BOTH_KEYS);
  }

  static final String BOTH_KEYS =
      "{\"keys\":["
          + new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).keyID("r").build().toJSONString()
          + ","
          + new ECKey.Builder(Curve.P_256, (ECPublicKey) EC.getPublic())
              .keyID("e")
              .build()
              .toJSONString()
          + "]}";

  UUID keyAccount(String jwks) throws Exception {
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.createWithKeys(
            id,
            new AccountProfile("signer", "org", List.of(), List.of("catalog:*"), "catalog"),
            ServiceAccount.Keys.of(ClientJwks.parse(new ObjectMapper().readTree(jwks))),
            clock.instant()));
    return id;
  }

  JWTClaimsSet.Builder claims(UUID id) {
    Instant now = clock.instant();
    return new JWTClaimsSet.Builder()
        .issuer(id.toString())
        .subject(id.toString())
        .audience(tokenEndpoint)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(60)))
        .jwtID(UUID.randomUUID().toString());
  }

  static String sign(JWSAlgorithm alg, String kid, JWTClaimsSet claims) throws Exception {
    JWSSigner signer =
        alg.equals(JWSAlgorithm.ES256)
            ? new ECDSASigner(EC.getPrivate(), Curve.P_256)
            : new RSASSASigner(RSA.getPrivate());
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(alg).keyID(kid).type(JOSEObjectType.JWT).build(), claims);
    jwt.sign(signer);
    return jwt.serialize();
  }

  String assertion(UUID id) throws Exception {
    return sign(JWSAlgorithm.RS256, "r", claims(id).build());
  }

  TokenResponseBody issue(String body) {
    return issue(body, null);
  }

  TokenResponseBody issue(String body, String authorization) {
    return endpoint.issue(body, FORM, authorization, null, "127.0.0.1");
  }

  static String body(String assertion) {
    return "grant_type=client_credentials&client_assertion_type="
        + TYPE
        + "&client_assertion="
        + assertion;
  }

  OAuthError refused(String body) {
    return assertThrows(OAuthError.class, () -> issue(body));
  }

  /** The refusal of an assertion with {@code change} made to its claims, as invalid_client. */
  String refusedClaims(UUID id, UnaryOperator<JWTClaimsSet.Builder> change) throws Exception {
    OAuthError error =
        refused(body(sign(JWSAlgorithm.RS256, "r", change.apply(claims(id)).build())));
    assertEquals(OAuthError.INVALID_CLIENT, error.error());
    assertEquals(401, error.status());
    return error.description();
  }

  @Test
  void whenEachAlgorithmSignsThenATokenIsIssuedAndTheAuditNamesTheMethod() throws Exception {
    UUID id = keyAccount();
    for (JWSAlgorithm alg : List.of(JWSAlgorithm.RS256, JWSAlgorithm.PS256, JWSAlgorithm.ES256)) {
      String kid = alg.equals(JWSAlgorithm.ES256) ? "e" : "r";
      TokenResponseBody token = issue(body(sign(alg, kid, claims(id).build())));
      assertNotNull(token.accessToken(), alg.getName());
    }
    assertTrue(
        audit.messages().stream()
            .anyMatch(
                line ->
                    line.contains("token.issue")
                        && line.contains(id.toString())
                        && line.contains("private_key_jwt")),
        audit.messages().toString());
  }

  @Test
  void whenClientIdIsSentItMustBeTheAssertionsIssuerAndSubject() throws Exception {
    UUID id = keyAccount();
    assertNotNull(issue("client_id=" + id + "&" + body(assertion(id))).accessToken());
    UUID other = keyAccount();
    OAuthError error = refused("client_id=" + other + "&" + body(assertion(id)));
    assertEquals(
        "the client_assertion's iss and sub must both be the client_id", error.description());
    assertTrue(refusedClaims(id, c -> c.issuer("someone")).contains("iss and sub"));
    assertTrue(refusedClaims(id, c -> c.subject(other.toString())).contains("iss and sub"));
  }

  @Test
  void whenAudDoesNotNameTheTokenEndpointOrIssuerThenItIsRefused() throws Exception {
    UUID id = keyAccount();
    assertTrue(
        refusedClaims(id, c -> c.audience("https://elsewhere.example/token"))
            .contains("aud does not name this token endpoint"));
    assertTrue(refusedClaims(id, c -> c.audience((String) null)).contains("aud"));
    JWTClaimsSet both =
        claims(id).audience(List.of("https://x.example", settings.issuer().toString())).build();
    assertNotNull(issue(body(sign(JWSAlgorithm.RS256, "r", both))).accessToken());
  }

  @Test
  void whenExpIsMissingPastOrTooFarThenItIsRefused() throws Exception {
    UUID id = keyAccount();
    assertEquals("the client_assertion has no exp", refusedClaims(id, c -> c.expirationTime(null)));
    Instant now = clock.instant();
    assertTrue(
        refusedClaims(id, c -> c.expirationTime(Date.from(now.minusSeconds(61))))
            .contains("expired"));
    assertNotNull(
        issue(
                body(
                    sign(
                        JWSAlgorithm.RS256,
                        "r",
                        claims(id).expirationTime(Date.from(now.minusSeconds(59))).build())))
            .accessToken(),
        "within the 60 s skew");
    assertTrue(
        refusedClaims(id, c -> c.expirationTime(Date.from(now.plusSeconds(301))))
            .contains("more than 5 minutes after its iat"));
    assertTrue(
        refusedClaims(id, c -> c.issueTime(null).expirationTime(Date.from(now.plusSeconds(301))))
            .contains("more than 5 minutes after its arrival"));
  }

  @Test
  void whenNbfOrIatIsInTheFutureBeyondTheSkewThenItIsRefused() throws Exception {
    UUID id = keyAccount();
    Instant now = clock.instant();
    assertTrue(
        refusedClaims(id, c -> c.notBeforeTime(Date.from(now.plusSeconds(61))))
            .contains("not valid before"));
    assertNotNull(
        issue(
                body(
                    sign(
                        JWSAlgorithm.RS256,
                        "r",
                        claims(id).notBeforeTime(Date.from(now.plusSeconds(59))).build())))
            .accessToken());
    assertTrue(
        refusedClaims(id, c -> c.issueTime(Date.from(now.plusSeconds(61))))
            .contains("iat is in the future"));
  }

  @Test
  void whenTheJtiIsUsedAgainBeforeExpThenItIsRefusedAndAfterExpItIsTaken() throws Exception {
    UUID id = keyAccount();
    assertEquals("the client_assertion has no jti", refusedClaims(id, c -> c.jwtID(null)));
    JWTClaimsSet once = claims(id).jwtID("once").build();
    String assertion = sign(JWSAlgorithm.RS256, "r", once);
    assertNotNull(issue(body(assertion)).accessToken());
    assertEquals(ClientAssertions.REPLAYED, refused(body(assertion)).description());
    clock.advance(Duration.ofSeconds(30));
    assertEquals(
        ClientAssertions.REPLAYED,
        refused(body(sign(JWSAlgorithm.RS256, "r", claims(id).jwtID("once").build())))
            .description(),
        "a fresh assertion with the jti of one not yet expired");
    // The first one expired at START + 60 s, and was held for the skew after it.
    clock.advance(Duration.ofSeconds(91));
    assertNotNull(
        issue(body(sign(JWSAlgorithm.RS256, "r", claims(id).jwtID("once").build()))).accessToken());
    assertNotNull(
        issue(body(sign(JWSAlgorithm.RS256, "r", claims(keyAccount()).jwtID("once").build())))
            .accessToken(),
        "another client's jti is its own");
  }

  @Test
  void whenTheKeyIsWrongThenTheAnswerIsTheSameAsForAnUnknownClient() throws Exception {
    UUID id = keyAccount();
    String unknownKid =
        refused(body(sign(JWSAlgorithm.RS256, "nope", claims(id).build()))).description();
    String ecKidWithRs256 =
        refused(body(sign(JWSAlgorithm.RS256, "e", claims(id).build()))).description();
    String rsaKidWithEs256 =
        refused(body(sign(JWSAlgorithm.ES256, "r", claims(id).build()))).description();
    String noKidAmongTwo =
        refused(body(sign(JWSAlgorithm.RS256, null, claims(id).build()))).description();
    SignedJWT forged =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("r").build(), claims(id).build());
    forged.sign(new RSASSASigner(OTHER_RSA.getPrivate()));
    String wrongSignature = refused(body(forged.serialize())).description();
    UUID stranger = UUID.randomUUID();
    String unknownClient = refused(body(assertion(stranger))).description();
    for (String description :
        List.of(unknownKid, ecKidWithRs256, rsaKidWithEs256, noKidAmongTwo, wrongSignature)) {
      assertEquals(unknownClient, description);
    }
    assertEquals(ClientAssertions.NOT_SIGNED, unknownClient);
  }

  @Test
  void whenTheOnlyKeyHasNoKidThenAnAssertionWithoutKidIsVerifiedByIt() throws Exception {
    UUID id =
        keyAccount(
            "{\"keys\":["
                + new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).build().toJSONString()
                + "]}");
    assertNotNull(issue(body(sign(JWSAlgorithm.RS256, null, claims(id).build()))).accessToken());
  }

  @Test
  void whenTheAlgorithmIsNoneOrAMacThenItIsRefused() throws Exception {
    UUID id = keyAccount();
    String payload = base64url(claims(id).build().toString());
    String none = base64url("{\"alg\":\"none\"}") + "." + payload + ".";
    assertEquals(OAuthError.INVALID_CLIENT, refused(body(none)).error());
    String hs256 = base64url("{\"alg\":\"HS256\",\"kid\":\"r\"}") + "." + payload + ".c2ln";
    assertTrue(refused(body(hs256)).description().contains("RS256, PS256 or ES256"));
    String crit =
        base64url("{\"alg\":\"RS256\",\"kid\":\"r\",\"crit\":[\"exp\"]}") + "." + payload + ".c2ln";
    assertTrue(refused(body(crit)).description().contains("crit"));
  }

  @Test
  void whenTheAssertionIsOversizedOrNoJwtThenItIsInvalidClient() throws Exception {
    UUID id = keyAccount();
    String big = sign(JWSAlgorithm.RS256, "r", claims(id).claim("pad", "x".repeat(8192)).build());
    OAuthError error = refused(body(big));
    assertEquals(401, error.status());
    assertTrue(error.description().contains("8 KiB"));
    assertEquals(OAuthError.INVALID_CLIENT, refused(body("not-a-jwt")).error());
    assertEquals(OAuthError.INVALID_CLIENT, refused(body("a.b.c")).error());
  }

  @Test
  void whenSecretsAndAssertionsAreMixedThenTheRequestOrTheClientIsRefused() throws Exception {
    UUID id = keyAccount();
    String assertion = assertion(id);
    String basic =
        "Basic " + Base64.getEncoder().encodeToString((id + ":x").getBytes(StandardCharsets.UTF_8));
    OAuthError both = assertThrows(OAuthError.class, () -> issue(body(assertion), basic));
    assertEquals(OAuthError.INVALID_REQUEST, both.error());
    assertEquals(OAuthError.INVALID_REQUEST, refused(body(assertion) + "&client_secret=x").error());
    OAuthError twice = refused(body(assertion) + "&client_assertion=" + assertion);
    assertEquals(OAuthError.INVALID_REQUEST, twice.error());
    assertTrue(twice.description().contains("repeated"));
    assertTrue(
        refused(body(assertion).replace(TYPE, "urn:other"))
            .description()
            .contains("client_assertion_type must be"));
    assertTrue(
        refused("grant_type=client_credentials&client_assertion=" + assertion)
            .description()
            .contains("client_assertion_type"));

    // A secret account cannot use an assertion, and a key account has no secret.
    UUID secretAccount = UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            secretAccount,
            new AccountProfile("secret", "org", List.of(), List.of("catalog:*"), "catalog"),
            digest.of("s3cret"),
            clock.instant()));
    assertEquals(
        ClientAssertions.NOT_SIGNED, refused(body(assertion(secretAccount))).description());
    OAuthError noSecret =
        refused("grant_type=client_credentials&client_id=" + id + "&client_secret=anything");
    assertEquals(ClientAuthenticator.FAILED, noSecret.description());
  }

  @Test
  void whenTheAccountIsDeactivatedOrItsKeysReplacedThenItsAssertionsFail() throws Exception {
    UUID id = keyAccount();
    String before = assertion(id);
    accounts.change(
        id,
        account ->
            account.replaceKeys(
                ServiceAccount.Keys.at(URI.create("https://keys.example/jwks")), clock.instant()));
    assertEquals(ClientAssertions.NOT_SIGNED, refused(body(before)).description());
    UUID other = keyAccount();
    accounts.change(other, account -> account.deactivate(clock.instant()));
    assertEquals(ClientAuthenticator.REVOKED, refused(body(assertion(other))).description());
  }

  static String base64url(String text) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void whenATokenRequestCarriesAnAssertionThenItsToStringHidesIt() throws Exception {
    TokenRequest request = TokenRequest.from(body(assertion(keyAccount())), FORM, null, null);
    assertFalse(request.toString().contains(".ey"));
    assertTrue(request.toString().contains("assertion=(hidden)"));
  }

  @Test
  void whenTheKeysArePublishedThenAnUnknownKidRefetchesTheSetOnce() throws Exception {
    ClientJwks withoutEc =
        ClientJwks.parse(
            new ObjectMapper()
                .readTree(
                    "{\"keys\":["
                        + new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
                            .keyID("r")
                            .build()
                            .toJSONString()
                        + "]}"));
    UUID id = keyAccount();
    ClientJwks both = ClientJwks.parse(new ObjectMapper().readTree(BOTH_KEYS));
    published =
        (uri, refresh) -> {
          fetched.add(uri + " " + refresh);
          return refresh ? both : withoutEc;
        };
    accounts.change(
        id,
        account ->
            account.replaceKeys(
                ServiceAccount.Keys.at(URI.create("https://keys.example/jwks")), clock.instant()));
    assertNotNull(issue(body(assertion(id))).accessToken());
    assertEquals(List.of("https://keys.example/jwks false"), fetched);
    assertNotNull(
        issue(body(sign(JWSAlgorithm.ES256, "e", claims(id).build()))).accessToken(),
        "the EC key is only in the set a refetch brings");
    assertEquals(
        List.of(
            "https://keys.example/jwks false",
            "https://keys.example/jwks false",
            "https://keys.example/jwks true"),
        fetched);
    published =
        (uri, refresh) -> {
          throw new ClientKeysUnavailableException(
              uri.toString(), new java.io.IOException(uri + " answered 500"));
        };
    assertEquals(ClientAssertions.NOT_SIGNED, refused(body(assertion(id))).description());
  }

  @Test
  void whenAssertionsAreTakenOrRefusedThenNoAuditLineHoldsOne() throws Exception {
    UUID id = keyAccount();
    String good = assertion(id);
    issue(body(good));
    refused(body(good));
    String expired =
        sign(
            JWSAlgorithm.RS256,
            "r",
            claims(id).expirationTime(Date.from(clock.instant().minusSeconds(120))).build());
    refused(body(expired));
    for (String assertion : List.of(good, expired)) {
      String signature = assertion.substring(assertion.lastIndexOf('.') + 1);
      for (String line : audit.messages()) {
        assertFalse(line.contains(signature), line);
        assertFalse(line.contains(assertion.substring(0, assertion.indexOf('.'))), line);
      }
    }
    assertTrue(audit.messages().stream().anyMatch(line -> line.contains("expired")));
  }
}
