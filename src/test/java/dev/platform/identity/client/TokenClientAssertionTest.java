package dev.platform.identity.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.verify.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * private_key_jwt (RFC 7523) against the stub identity service; the assertions checked by Nimbus.
 */
class TokenClientAssertionTest {
  static final String ID = TokenClientTest.ID;
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final KeyPair RSA = generate("RSA", 2048);
  static final KeyPair EC = generate("EC", 256);

  final MutableClock clock = new MutableClock(START);
  final List<StubServer.Request> requests = new CopyOnWriteArrayList<>();
  StubServer stub;

  @BeforeEach
  void start() throws IOException {
    stub =
        StubServer.start(
            "/oauth/token",
            request -> {
              requests.add(request);
              return new StubServer.Reply(
                  200,
                  Map.of(),
                  "{\"access_token\":\"t" + request.number() + "\",\"expires_in\":3600}");
            });
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  TokenClient.Builder builder() {
    return TokenClient.builder().baseUrl(stub.uri()).clock(clock).sleeper(wait -> {});
  }

  TokenClient.Builder signing(String alg) {
    KeyPair pair = alg.equals("ES256") ? EC : RSA;
    return builder().clientId(ID).privateKeyJwt(pair.getPrivate(), "key-1", alg);
  }

  @Test
  void whenTheBaseUrlEndsInASlashThenAudIsTheIssuerWithoutIt() throws Exception {
    TokenClient.builder()
        .baseUrl(URI.create(stub.uri() + "/"))
        .clock(clock)
        .sleeper(wait -> {})
        .clientId(ID)
        .privateKeyJwt(EC.getPrivate(), "key-1", "ES256")
        .build()
        .token();

    SignedJWT jwt = SignedJWT.parse(form(requests.get(0).body()).get("client_assertion"));
    assertEquals(stub.uri().toString(), jwt.getPayload().toJSONObject().get("aud"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"RS256", "PS256", "ES256"})
  void whenSigningWithEachAlgorithmThenTheFormCarriesAVerifiableAssertionAndNoAuthorization(
      String alg) throws Exception {
    signing(alg).scopes(List.of("catalog:*")).build().token();

    StubServer.Request request = requests.get(0);
    assertNull(request.authorization());
    Map<String, String> form = form(request.body());
    assertEquals(
        List.of("grant_type", "client_id", "client_assertion_type", "client_assertion", "scope"),
        List.copyOf(form.keySet()));
    assertEquals("client_credentials", form.get("grant_type"));
    assertEquals(ID, form.get("client_id"));
    assertEquals(
        "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        form.get("client_assertion_type"));
    assertEquals("catalog:*", form.get("scope"));
    SignedJWT jwt = SignedJWT.parse(form.get("client_assertion"));
    assertEquals(JWSAlgorithm.parse(alg), jwt.getHeader().getAlgorithm());
    assertEquals("key-1", jwt.getHeader().getKeyID());
    assertTrue(jwt.verify(verifier(alg)), alg + " signature verifies with the public key");
    JWTClaimsSet claims = jwt.getJWTClaimsSet();
    assertEquals(ID, claims.getIssuer());
    assertEquals(ID, claims.getSubject());
    assertEquals(
        stub.uri().toString(),
        jwt.getPayload().toJSONObject().get("aud"),
        "issue 36: aud is the issuer, one string, never an array");
    assertEquals(START, claims.getIssueTime().toInstant());
    assertEquals(
        60, (claims.getExpirationTime().getTime() - claims.getIssueTime().getTime()) / 1000);
    assertNotNull(claims.getJWTID());
  }

  @Test
  void whenTwoRequestsAreMadeThenEachAssertionIsFreshWithItsOwnJti() throws Exception {
    TokenClient client = signing("ES256").build();
    client.reportUnauthorized(client.token());
    clock.advance(Duration.ofSeconds(90));
    client.token();

    JWTClaimsSet first = claims(requests.get(0));
    JWTClaimsSet second = claims(requests.get(1));
    assertEquals(2, stub.requests());
    assertNotEquals(first.getJWTID(), second.getJWTID());
    assertEquals(START.plusSeconds(90), second.getIssueTime().toInstant());
    assertTrue(second.getExpirationTime().toInstant().isAfter(clock.instant()));
  }

  @Test
  void whenNoKidIsGivenThenTheHeaderHasNone() throws Exception {
    builder().clientId(ID).privateKeyJwt(RSA.getPrivate(), null, "RS256").build().token();

    SignedJWT jwt = SignedJWT.parse(form(requests.get(0).body()).get("client_assertion"));
    assertNull(jwt.getHeader().getKeyID());
    assertTrue(jwt.verify(verifier("RS256")));
  }

  @Test
  void whenTheKeyDoesNotFitTheAlgorithmThenBuildRefusesNamingIt() {
    assertRefused("RS256 needs an RSA key, not EC", builder().clientId(ID), EC, "RS256");
    assertRefused("PS256 needs an RSA key, not EC", builder().clientId(ID), EC, "PS256");
    assertRefused("ES256 needs an EC P-256 key, not RSA", builder().clientId(ID), RSA, "ES256");
    assertRefused(
        "ES256 needs an EC key on P-256", builder().clientId(ID), generate("EC", 384), "ES256");
    assertRefused("2048 bits or more", builder().clientId(ID), generate("RSA", 1024), "RS256");
    assertRefused("HS256 is not one of RS256, PS256, ES256", builder().clientId(ID), RSA, "HS256");
  }

  @Test
  void whenNeitherSecretNorKeyIsGivenThenBuildRefuses() {
    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> builder().clientId(ID).build());

    assertTrue(refused.getMessage().contains("is required"), refused.getMessage());
  }

  @Test
  void whenBothSecretAndKeyAreGivenThenBuildRefuses() {
    TokenClient.Builder both =
        builder().credentials(ID, "secret").privateKeyJwt(RSA.getPrivate(), "key-1", "RS256");

    IllegalStateException refused = assertThrows(IllegalStateException.class, both::build);

    assertTrue(refused.getMessage().contains("not both"), refused.getMessage());
  }

  @Test
  void whenAKeyComesWithoutAClientIdOrWithClientSecretPostThenBuildRefuses() {
    assertThrows(
        IllegalStateException.class,
        () -> builder().privateKeyJwt(RSA.getPrivate(), "key-1", "RS256").build());
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class, () -> signing("RS256").clientSecretPost().build());
    assertTrue(refused.getMessage().contains("clientSecretPost"), refused.getMessage());
  }

  @Test
  void whenShownThenThePrivateKeyDoesNotAppear() {
    TokenClient.Builder builder = signing("RS256");
    TokenClient client = builder.build();
    client.token();
    String rsaSecret = ((RSAPrivateCrtKey) RSA.getPrivate()).getPrivateExponent().toString(16);
    String ecSecret = ((ECPrivateKey) EC.getPrivate()).getS().toString(16);

    for (String shown :
        List.of(builder.toString(), client.toString(), signing("ES256").build().toString())) {
      assertFalse(shown.contains(rsaSecret), shown);
      assertFalse(shown.contains(ecSecret), shown);
      assertFalse(shown.contains("private"), shown);
    }
  }

  void assertRefused(String naming, TokenClient.Builder builder, KeyPair pair, String alg) {
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> builder.privateKeyJwt(pair.getPrivate(), "key-1", alg).build());
    assertTrue(refused.getMessage().contains(naming), refused.getMessage());
  }

  static JWSVerifier verifier(String alg) throws Exception {
    return alg.equals("ES256")
        ? new ECDSAVerifier((ECPublicKey) EC.getPublic())
        : new RSASSAVerifier((RSAPublicKey) RSA.getPublic());
  }

  static JWTClaimsSet claims(StubServer.Request request) throws Exception {
    return SignedJWT.parse(form(request.body()).get("client_assertion")).getJWTClaimsSet();
  }

  static Map<String, String> form(String body) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      String[] parts = pair.split("=", 2);
      String name = URLDecoder.decode(parts[0], StandardCharsets.UTF_8);
      assertNull(fields.put(name, URLDecoder.decode(parts[1], StandardCharsets.UTF_8)), name);
    }
    return fields;
  }

  static KeyPair generate(String algorithm, int size) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      if (algorithm.equals("EC")) {
        generator.initialize(new ECGenParameterSpec(size == 256 ? "secp256r1" : "secp384r1"));
      } else {
        generator.initialize(size);
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
