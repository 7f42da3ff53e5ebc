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
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import java.util.Set;
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
  final SecretDigest digest = new SecretDigest(settings.secrets().pepper());
  final ServiceAccounts accounts = new ServiceAccounts(node.database());
  final LogCapture audit = LogCapture.of(AuditLog.LOGGER);
  final String tokenEndpoint = settings.tokens().issuer() + "/oauth/token";
  final List<String> fetched = new java.util.concurrent.CopyOnWriteArrayList<>();
  volatile java.util.function.BiFunction<URI, Boolean, ClientJwks> published =
      (uri, refresh) -> {
        throw new IllegalStateException("no published sets here");
      };
  final TokenServlet endpoint = endpoint(true);

  /** The token endpoint; {@code tokenEndpointAudience} false is assertionAudience=issuer. */
  TokenServlet endpoint(boolean tokenEndpointAudience) {
    return TokenEndpoint.build(
        new TokenEndpoint.Policy(
            settings.tokens().issuer(),
            settings.tokens().lifetime(),
            settings.tokens().adminLifetime(),
            Optional.empty(),
            tokenEndpointAudience),
        accounts,
        digest,
        new dev.platform.identity.scope.ScopeCatalog(node.database()),
        node.ring(),
        new UsedJtis(data),
        (uri, refresh) -> published.apply(uri, refresh),
        new AuditLog(clock),
        TokenMeters.none(),
        clock);
  }

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
            .startsWith("the client_assertion's aud must be the issuer ("));
    assertTrue(refusedClaims(id, c -> c.audience((String) null)).contains("aud"));
  }

  /**
   * An assertion whose claims are {@link #claims}' with {@code aud} set to the JSON {@code audJson}
   * (null: no aud at all), signed by the RSA key "r".
   */
  String withAud(UUID id, String audJson) throws Exception {
    ObjectMapper json = new ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode claims =
        json.valueToTree(claims(id).audience((String) null).build().toJSONObject());
    if (audJson != null) {
      claims.set("aud", json.readTree(audJson));
    }
    com.nimbusds.jose.JWSObject jws =
        new com.nimbusds.jose.JWSObject(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("r").type(JOSEObjectType.JWT).build(),
            new com.nimbusds.jose.Payload(json.writeValueAsString(claims)));
    jws.sign(new RSASSASigner(RSA.getPrivate()));
    return jws.serialize();
  }

  static String quoted(String text) {
    return "\"" + text + "\"";
  }

  @Test
  void whenAudIsTheIssuerOrTheTokenEndpointAsOneStringThenATokenIsIssued() throws Exception {
    UUID id = keyAccount();

    assertNotNull(
        issue(body(withAud(id, quoted(settings.tokens().issuer().toString())))).accessToken());
    assertNotNull(issue(body(withAud(id, quoted(tokenEndpoint)))).accessToken());
  }

  /** Issue 36 item 3: audience injection, and every near miss of our two addresses. */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "array with the issuer",
        "array with the token endpoint",
        "array of one",
        "trailing slash",
        "another case",
        "token endpoint with a query",
        "token endpoint with a trailing slash",
        "empty string",
        "number",
        "null",
        "object",
        "absent"
      })
  void whenAudIsAnArrayOrANearMissThenTheAssertionIsRefused(String spelling) throws Exception {
    UUID id = keyAccount();
    String issuer = settings.tokens().issuer().toString();
    String aud =
        switch (spelling) {
          case "array with the issuer" -> "[\"https://evil.example\"," + quoted(issuer) + "]";
          case "array with the token endpoint" ->
              "[" + quoted(tokenEndpoint) + ",\"https://evil.example/token\"]";
          case "array of one" -> "[" + quoted(issuer) + "]";
          case "trailing slash" -> quoted(issuer + "/");
          case "another case" -> quoted(issuer.toUpperCase(java.util.Locale.ROOT));
          case "token endpoint with a query" -> quoted(tokenEndpoint + "?aud=" + issuer);
          case "token endpoint with a trailing slash" -> quoted(tokenEndpoint + "/");
          case "empty string" -> quoted("");
          case "number" -> "1";
          case "null" -> "null";
          case "object" -> "{\"aud\":" + quoted(issuer) + "}";
          default -> null;
        };

    OAuthError error = refused(body(withAud(id, aud)));

    assertEquals(OAuthError.INVALID_CLIENT, error.error());
    assertEquals(401, error.status());
    assertTrue(
        error.description().startsWith("the client_assertion's aud must be"), error.description());
    assertEquals(spelling.startsWith("array"), error.description().contains("not an array"));
  }

  @Test
  void whenOnlyTheIssuerIsTakenThenTheTokenEndpointIsRefusedAndTheIssuerTaken() throws Exception {
    UUID id = keyAccount();
    TokenServlet strict = endpoint(false);

    OAuthError error =
        assertThrows(
            OAuthError.class,
            () -> strict.issue(body(withAud(id, quoted(tokenEndpoint))), FORM, null, null, "::1"));
    assertEquals(
        "the client_assertion's aud must be the issuer (" + settings.tokens().issuer() + ")",
        error.description());
    assertNotNull(
        strict
            .issue(
                body(withAud(id, quoted(settings.tokens().issuer().toString()))),
                FORM,
                null,
                null,
                "::1")
            .accessToken());
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
    assertEquals(
        ClientKeysUnavailableException.NOT_YET, refused(body(assertion(id))).description());
  }

  /** The service's own sets over a stub HTTPS host, fetched in place (an executor that runs it). */
  ClientKeySets publishedSets(HttpsStub stub, SimpleMeterRegistry registry) {
    ClientKeySets sets =
        new ClientKeySets(
            true,
            Set.of(stub.port()),
            ClientKeySetFetch.builder(ClientJwks::published)
                .httpClient(HttpsStub.client())
                .allowPrivate(true)
                .ports(Set.of(stub.port()))
                .deadline(Duration.ofSeconds(10))
                .build(),
            RemoteClientKeys.Times.DEFAULT,
            clock,
            registry,
            new AuditLog(clock),
            Runnable::run);
    published = sets::at;
    return sets;
  }

  UUID publishingAccount(URI jwksUri) throws Exception {
    UUID id = keyAccount();
    accounts.change(
        id, account -> account.replaceKeys(ServiceAccount.Keys.at(jwksUri), clock.instant()));
    return id;
  }

  static String set(String... jwks) {
    return "{\"keys\":[" + String.join(",", jwks) + "]}";
  }

  static final String RSA_JWK =
      new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).keyID("r").build().toJSONString();
  static final String EC_JWK =
      new ECKey.Builder(Curve.P_256, (ECPublicKey) EC.getPublic())
          .keyID("e")
          .build()
          .toJSONString();
  static final String OKP_JWK =
      "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"ed\","
          + "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}";

  /**
   * Issue 36 item 1, the reviewer's harness: the client rotates away its stolen RSA key, and its
   * new set holds one entry this service cannot use. Before, that refused the whole new set and the
   * old one, stolen key and all, served on; now the old key is refused from the next fetch on.
   */
  @Test
  void whenARotatedSetHoldsAnUnusableEntryThenTheRemovedKeyIsRefusedAfterTheNextFetch()
      throws Exception {
    try (HttpsStub stub = HttpsStub.start()) {
      stub.answer("/jwks", HttpsStub.whole(200, set(RSA_JWK)));
      publishedSets(stub, new SimpleMeterRegistry());
      UUID id = publishingAccount(stub.uri("/jwks"));
      assertNotNull(issue(body(assertion(id))).accessToken());

      stub.answer("/jwks", HttpsStub.whole(200, set(EC_JWK, OKP_JWK)));
      clock.advance(RemoteClientKeys.Times.DEFAULT.cacheTime());

      assertEquals(ClientAssertions.NOT_SIGNED, refused(body(assertion(id))).description());
      assertNotNull(issue(body(sign(JWSAlgorithm.ES256, "e", claims(id).build()))).accessToken());
      assertEquals(ClientAssertions.NOT_SIGNED, refused(body(assertion(id))).description());
      assertEquals(2, stub.requests("/jwks"));
    }
  }

  /** Issue 36 item 1: an unreachable host keeps the last set only up to the maximum age. */
  @Test
  void whenTheHostIsUnreachableThenTheLastSetIsRefusedPastTheMaxAge() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    HttpsStub stub = HttpsStub.start();
    stub.answer("/jwks", HttpsStub.whole(200, set(RSA_JWK)));
    ClientKeySets sets = publishedSets(stub, registry);
    UUID id = publishingAccount(stub.uri("/jwks"));
    assertNotNull(issue(body(assertion(id))).accessToken());
    stub.close(); // nothing listens there any more

    Duration step = RemoteClientKeys.Times.DEFAULT.cacheTime();
    for (Duration age = step; age.compareTo(Duration.ofHours(1)) < 0; age = age.plus(step)) {
      clock.advance(step);
      sets.refreshDue();
      assertNotNull(issue(body(assertion(id))).accessToken(), "at " + age);
    }
    clock.advance(step);
    sets.refreshDue();

    OAuthError error = refused(body(assertion(id)));
    assertEquals(OAuthError.INVALID_CLIENT, error.error());
    assertEquals(ClientKeysUnavailableException.TOO_OLD, error.description());
    refused(body(assertion(id)));
    assertEquals(
        2.0,
        registry
            .get("identity.token.client.keyset.refusals")
            .tag("reason", "too_old")
            .counter()
            .count());
    assertEquals(
        1,
        audit.messages().stream().filter(line -> line.contains("client.keyset.expired")).count());
    assertTrue(
        audit.messages().stream()
            .anyMatch(line -> line.contains("token.refuse") && line.contains("refused until")),
        "the refusal's audit line says why");
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
