package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.openid.connect.sdk.Nonce;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.jose.DpopNonces;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 on the token path (RFC 9449 §5): a token request with a DPoP proof, made by the Nimbus
 * OAuth SDK's {@code DefaultDPoPProofFactory}, gets a {@code DPoP} token bound to the proof's key;
 * each way the endpoint refuses a proof; a proof taken once; an account that requires DPoP; server
 * nonces. The clock is the node's own, moved by the test.
 */
class DpopTokenTest {
  static final String FORM = "application/x-www-form-urlencoded";
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final KeyPair EC = pair("EC");
  static final KeyPair OTHER_EC = pair("EC");
  static final KeyPair RSA = pair("RSA");
  static final ObjectMapper JSON = new ObjectMapper();

  final TokenPathNode path = new TokenPathNode("dpop", NOW, List.of());
  final URI tokenEndpoint = URI.create(path.settings.tokens().issuer() + "/oauth/token");
  final String secret = "s3cret-" + UUID.randomUUID();

  @BeforeEach
  void startKeys() {
    path.start();
  }

  @AfterEach
  void close() {
    path.close();
  }

  UUID account(boolean requiresDpop) {
    UUID id = UUID.randomUUID();
    ServiceAccount account =
        ServiceAccount.create(
            id,
            new AccountProfile("dpop", "org", List.of(), List.of("catalog:*"), "catalog"),
            path.digest.of(secret),
            path.clock.instant());
    path.accounts.add(requiresDpop ? account.requiringDpop() : account);
    return id;
  }

  TokenAnswer answer(TokenServlet endpoint, UUID id, List<String> proofs) {
    String body = "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret;
    return endpoint.answer(
        () -> TokenRequest.from(body, FORM, null, null).withDpop(proofs),
        "127.0.0.1",
        FailureBudget.NONE);
  }

  TokenAnswer answer(UUID id, String... proofs) {
    return answer(path.endpoint, id, List.of(proofs));
  }

  String proof(JWK key, JWSAlgorithm alg, String method, URI uri, Instant at, Nonce nonce)
      throws Exception {
    return new DefaultDPoPProofFactory(key, alg)
        .createDPoPJWT(new JWTID(), method, uri, Date.from(at), null, nonce)
        .serialize();
  }

  String proof(KeyPair pair) throws Exception {
    return proof(jwk(pair), alg(pair), "POST", tokenEndpoint, path.clock.instant(), null);
  }

  @Test
  void whenAClientSendsAnEs256OrRs256ProofThenItGetsADpopTokenBoundToThatKey() throws Exception {
    UUID id = account(false);
    for (KeyPair pair : List.of(EC, RSA)) {
      TokenAnswer answer = answer(id, proof(pair));
      assertEquals(200, answer.status(), text(answer));
      JsonNode body = json(answer.body());
      assertEquals("DPoP", body.path("token_type").asText());
      JsonNode cnf = claims(body.path("access_token").asText()).path("cnf");
      assertEquals(jwk(pair).computeThumbprint().toString(), cnf.path("jkt").asText());
      assertFalse(cnf.has("x5t#S256"), "bound to the key only");
    }
  }

  @Test
  void whenAClientSendsNoProofThenItGetsABearerTokenUnlessItsAccountRequiresDpop() {
    TokenAnswer plain = answer(account(false));
    assertEquals(200, plain.status(), text(plain));
    assertEquals("Bearer", json(plain.body()).path("token_type").asText());
    assertFalse(claims(json(plain.body()).path("access_token").asText()).has("cnf"));

    TokenAnswer required = answer(account(true));
    assertRefused(required, "invalid_dpop_proof", "dpop_bound_access_tokens");
  }

  @Test
  void whenAnAccountRequiresDpopThenAProofGetsItsToken() throws Exception {
    TokenAnswer answer = answer(account(true), proof(EC));
    assertEquals(200, answer.status(), text(answer));
    assertEquals("DPoP", json(answer.body()).path("token_type").asText());
  }

  @Test
  void whenAProofIsSentTwiceThenTheSecondIsRefusedOnEveryNodeOfTheDatabase() throws Exception {
    UUID id = account(false);
    String proof = proof(EC);
    assertEquals(200, answer(id, proof).status());
    assertRefused(answer(id, proof), "invalid_dpop_proof", "used before");
    // A second endpoint over the same database: another node of the cluster.
    TokenServlet otherNode =
        TokenEndpoint.build(
            TestEndpoints.policy(path.settings, Optional.empty()),
            path.accounts,
            path.digest,
            new dev.platform.identity.scope.ScopeCatalog(path.node.database()),
            path.node.ring(),
            new UsedJtis(path.data),
            (uri, refresh) -> {
              throw new IllegalStateException("no published sets here");
            },
            new dev.platform.identity.audit.AuditLog(path.clock),
            TokenMeters.none(),
            path.clock);
    assertRefused(answer(otherNode, id, List.of(proof)), "invalid_dpop_proof", "used before");
  }

  @Test
  void whenAProofIsSentAgainAtTheLastInstantItIsTakenThenItIsStillRefused() throws Exception {
    // The attacker's review: the row of a proof used at iat expires at iat + 60 s, the last
    // instant the checker takes the proof; at that instant the row must still stand.
    UUID id = account(false);
    String proof = proof(EC);
    assertEquals(200, answer(id, proof).status());
    path.clock.advance(Duration.ofSeconds(60));
    assertRefused(answer(id, proof), "invalid_dpop_proof", "used before");
    path.clock.advance(Duration.ofSeconds(1));
    assertRefused(answer(id, proof), "invalid_dpop_proof", "iat");
  }

  @Test
  void whenAProofIsUsedBeforeByAnotherClientThenItsOwnIsStillTaken() throws Exception {
    // The jti is taken per client: one client cannot spend another's.
    String proof = proof(EC);
    assertEquals(200, answer(account(false), proof).status());
    assertEquals(200, answer(account(false), proof).status());
  }

  @Test
  void whenAProofBreaksARuleThenTheAnswerIsInvalidDpopProofSayingWhich() throws Exception {
    UUID id = account(false);
    Instant now = path.clock.instant();
    JWK ec = jwk(EC);
    assertRefused(
        answer(id, proof(ec, JWSAlgorithm.ES256, "GET", tokenEndpoint, now, null)),
        "invalid_dpop_proof",
        "htm");
    assertRefused(
        answer(
            id,
            proof(
                ec, JWSAlgorithm.ES256, "POST", URI.create("https://elsewhere/token"), now, null)),
        "invalid_dpop_proof",
        "htu");
    assertRefused(
        answer(
            id, proof(ec, JWSAlgorithm.ES256, "POST", tokenEndpoint, now.minusSeconds(61), null)),
        "invalid_dpop_proof",
        "iat");
    assertRefused(
        answer(id, proof(ec, JWSAlgorithm.ES256, "POST", tokenEndpoint, now.plusSeconds(11), null)),
        "invalid_dpop_proof",
        "iat");
    assertRefused(answer(id, "not.a.proof"), "invalid_dpop_proof", "DPoP");
    assertRefused(answer(id, proof(EC), proof(EC)), "invalid_dpop_proof", "exactly one");
    // Signed by another key than the jwk it carries: its header names EC, OTHER_EC signed it.
    String proof = proof(EC);
    String forged =
        proof.substring(0, proof.lastIndexOf('.'))
            + proof(OTHER_EC).substring(proof(OTHER_EC).lastIndexOf('.'));
    assertRefused(answer(id, forged), "invalid_dpop_proof", "signed");
  }

  @Test
  void whenAProofIsRefusedThenNoTokenIsGivenAndTheClientsWrongSecretStillComesFirst()
      throws Exception {
    UUID id = account(false);
    String body = "grant_type=client_credentials&client_id=" + id + "&client_secret=wrong";
    TokenAnswer answer =
        path.endpoint.answer(
            () -> TokenRequest.from(body, FORM, null, null).withDpop(List.of("not.a.proof")),
            "127.0.0.1",
            FailureBudget.NONE);
    // A stranger learns nothing of DPoP: its credentials are judged first.
    assertEquals(401, answer.status(), text(answer));
    assertEquals("invalid_client", json(answer.body()).path("error").asText());
  }

  @Test
  void whenNoncesAreOnThenAProofWithoutTheNonceIsUseDpopNonceAndWithItIsTaken() throws Exception {
    byte[] key = new byte[32];
    key[0] = 1;
    DpopNonces nonces = new DpopNonces(key, path.clock, Duration.ofMinutes(5));
    try (TokenPathNode withNonces =
        new TokenPathNode("dpop-nonce", NOW, List.of(), p -> p.withDpopNonces(nonces))) {
      withNonces.start();
      UUID id = UUID.randomUUID();
      withNonces.accounts.add(
          ServiceAccount.create(
              id,
              new AccountProfile("dpop", "org", List.of(), List.of("catalog:*"), "catalog"),
              withNonces.digest.of(secret),
              withNonces.clock.instant()));
      Instant now = withNonces.clock.instant();
      TokenAnswer without =
          answer(
              withNonces.endpoint,
              id,
              List.of(proof(jwk(EC), JWSAlgorithm.ES256, "POST", tokenEndpoint, now, null)));
      assertRefused(without, "use_dpop_nonce", "nonce");
      TokenAnswer stale =
          answer(
              withNonces.endpoint,
              id,
              List.of(
                  proof(jwk(EC), JWSAlgorithm.ES256, "POST", tokenEndpoint, now, new Nonce("x"))));
      assertRefused(stale, "use_dpop_nonce", "nonce");
      TokenAnswer with =
          answer(
              withNonces.endpoint,
              id,
              List.of(
                  proof(
                      jwk(EC),
                      JWSAlgorithm.ES256,
                      "POST",
                      tokenEndpoint,
                      now,
                      new Nonce(nonces.current()))));
      assertEquals(200, with.status(), text(with));
    }
  }

  /**
   * The console's sign-in asks in process ({@link TokenServlet#answer(java.util.function.Supplier,
   * List, String, FailureBudget)}): with nonces on, its answers give the nonce as the HTTP path's
   * do, a refusal and a token alike, and an answer to a request without a proof gives none.
   */
  @Test
  void whenAProofComesInProcessThenTheAnswerGivesTheNonceAsOverHttp() throws Exception {
    DpopNonces nonces = new DpopNonces(new byte[32], path.clock, Duration.ofMinutes(5));
    try (TokenPathNode withNonces =
        new TokenPathNode("dpop-in-process", NOW, List.of(), p -> p.withDpopNonces(nonces))) {
      withNonces.start();
      UUID id = UUID.randomUUID();
      withNonces.accounts.add(
          ServiceAccount.create(
              id,
              new AccountProfile("dpop", "org", List.of(), List.of("catalog:*"), "catalog"),
              withNonces.digest.of(secret),
              withNonces.clock.instant()));
      String body = "grant_type=client_credentials&client_id=" + id + "&client_secret=" + secret;
      java.util.function.Function<List<String>, TokenAnswer> inProcess =
          proofs ->
              withNonces.endpoint.answer(
                  () -> TokenRequest.from(body, FORM, null, null),
                  proofs,
                  "127.0.0.1",
                  FailureBudget.NONE);
      assertEquals(
          tokenEndpoint, TokenEndpoint.url(withNonces.settings.tokens().issuer()), "one URL");
      Instant now = withNonces.clock.instant();
      TokenAnswer without =
          inProcess.apply(
              List.of(proof(jwk(EC), JWSAlgorithm.ES256, "POST", tokenEndpoint, now, null)));
      assertRefused(without, "use_dpop_nonce", "nonce");
      assertEquals(nonces.current(), without.headers().get(TokenServlet.DPOP_NONCE));
      TokenAnswer with =
          inProcess.apply(
              List.of(
                  proof(
                      jwk(EC),
                      JWSAlgorithm.ES256,
                      "POST",
                      tokenEndpoint,
                      now,
                      new Nonce(without.headers().get(TokenServlet.DPOP_NONCE)))));
      assertEquals(200, with.status(), text(with));
      assertEquals("DPoP", json(with.body()).path("token_type").asText());
      assertEquals(nonces.current(), with.headers().get(TokenServlet.DPOP_NONCE));
      TokenAnswer noProof = inProcess.apply(List.of());
      assertEquals(200, noProof.status(), text(noProof));
      assertFalse(noProof.headers().containsKey(TokenServlet.DPOP_NONCE));
    }
  }

  static void assertRefused(TokenAnswer answer, String error, String says) {
    assertEquals(400, answer.status(), text(answer));
    JsonNode body = json(answer.body());
    assertEquals(error, body.path("error").asText(), text(answer));
    assertTrue(body.path("error_description").asText().contains(says), text(answer));
    assertFalse(body.has("access_token"));
  }

  static JsonNode claims(String jwt) {
    return json(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
  }

  static JsonNode json(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String text(TokenAnswer answer) {
    return answer.status() + " " + new String(answer.body(), StandardCharsets.UTF_8);
  }

  static JWK jwk(KeyPair pair) {
    return pair.getPublic() instanceof RSAPublicKey rsa
        ? new RSAKey.Builder(rsa).privateKey(pair.getPrivate()).build()
        : new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
            .privateKey(pair.getPrivate())
            .build();
  }

  static JWSAlgorithm alg(KeyPair pair) {
    return pair.getPublic() instanceof RSAPublicKey ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256;
  }

  static KeyPair pair(String algorithm) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      generator.initialize("EC".equals(algorithm) ? 256 : 2048);
      return generator.generateKeyPair();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
