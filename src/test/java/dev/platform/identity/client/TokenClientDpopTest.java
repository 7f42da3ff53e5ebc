package dev.platform.identity.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.dpop.JWKThumbprintConfirmation;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPIssuer;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPProtectedResourceRequestVerifier;
import com.nimbusds.oauth2.sdk.dpop.verifiers.DPoPTokenRequestVerifier;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.sun.net.httpserver.HttpServer;
import dev.platform.identity.jose.DpopProofException;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.key.MutableClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 40: {@link TokenClient} with a DPoP key (RFC 9449) against a stub token endpoint; every
 * proof it makes is checked by the service's own {@link DpopProofs}, some by Nimbus's verifiers.
 */
class TokenClientDpopTest {
  static final String ID = TokenClientTest.ID;
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final KeyPair EC = generate("EC");
  static final KeyPair RSA = generate("RSA");
  static final URI API = URI.create("https://orders.example/v1/orders");

  /** One request as the stub saw it: its DPoP headers, in order. */
  record Seen(List<String> dpop) {}

  /** What the stub answers: a status, a DPoP-Nonce or null, a body. */
  record Answer(int status, String nonce, String body) {}

  final MutableClock clock = new MutableClock(START);
  final List<Seen> seen = new CopyOnWriteArrayList<>();
  volatile Function<Integer, Answer> answers = n -> dpopToken(n);
  HttpServer server;

  static Answer dpopToken(int n) {
    return new Answer(
        200, null, "{\"access_token\":\"t" + n + "\",\"token_type\":\"DPoP\",\"expires_in\":3600}");
  }

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/oauth/token",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          List<String> dpop = exchange.getRequestHeaders().get("DPoP");
          seen.add(new Seen(dpop == null ? List.of() : List.copyOf(dpop)));
          Answer answer = answers.apply(seen.size());
          if (answer.nonce() != null) {
            exchange.getResponseHeaders().add("DPoP-Nonce", answer.nonce());
          }
          byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(answer.status(), body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  URI tokenUri() {
    return URI.create(base() + "/oauth/token");
  }

  TokenClient client(KeyPair keys) {
    return client(keys, clock);
  }

  TokenClient client(KeyPair keys, Clock clock) {
    return TokenClient.builder()
        .baseUrl(base())
        .credentials(ID, "s3cret")
        .dpop(keys)
        .clock(clock)
        .sleeper(wait -> {})
        .build();
  }

  static DpopProofs checker(Instant now) {
    return DpopProofs.builder().clock(Clock.fixed(now, ZoneOffset.UTC)).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "RS256"})
  void whenADpopKeyIsSetThenTheTokenRequestCarriesAProofTheServiceTakes(String alg)
      throws Exception {
    KeyPair keys = alg.equals("ES256") ? EC : RSA;
    TokenClient client = client(keys);
    assertEquals("t1", client.token());

    assertEquals(1, seen.get(0).dpop().size(), "exactly one DPoP header");
    String proof = seen.get(0).dpop().get(0);
    var checked =
        checker(START)
            .check(List.of(proof), "POST", tokenUri(), Optional.empty(), Optional.empty());
    assertEquals(client.dpopThumbprint().orElseThrow(), checked.thumbprint());
    assertEquals(START, checked.issuedAt());
    SignedJWT jwt = SignedJWT.parse(proof);
    assertEquals(JWSAlgorithm.parse(alg), jwt.getHeader().getAlgorithm());
    assertEquals("dpop+jwt", jwt.getHeader().getType().toString());
    assertNull(jwt.getHeader().getJWK().toJSONObject().get("d"), "the public key only");
    assertEquals(Set.of("jti", "htm", "htu", "iat"), jwt.getJWTClaimsSet().getClaims().keySet());
  }

  @Test
  void whenTwoTokensAreFetchedThenEachRequestHasANewProof() throws Exception {
    TokenClient client = client(EC);
    client.token();
    client.reportUnauthorized("t1");
    clock.advance(java.time.Duration.ofSeconds(5));
    assertEquals("t2", client.token());
    String first = seen.get(0).dpop().get(0);
    String second = seen.get(1).dpop().get(0);
    assertNotEquals(
        SignedJWT.parse(first).getJWTClaimsSet().getJWTID(),
        SignedJWT.parse(second).getJWTClaimsSet().getJWTID());
    assertEquals(
        START.plusSeconds(5),
        checker(START.plusSeconds(5))
            .check(List.of(second), "POST", tokenUri(), Optional.empty(), Optional.empty())
            .issuedAt());
  }

  @Test
  void whenTheServiceAsksForANonceThenTheClientRetriesOnceWithItAndKeepsTheLatest()
      throws Exception {
    answers =
        n ->
            switch (n) {
              case 1 ->
                  new Answer(
                      400,
                      "n-1",
                      "{\"error\":\"use_dpop_nonce\",\"error_description\":\"a nonce is needed\"}");
              case 2 -> new Answer(200, "n-2", dpopToken(n).body());
              default -> new Answer(200, "n-3", dpopToken(n).body());
            };
    TokenClient client = client(EC);
    assertEquals("t2", client.token());
    assertEquals(2, seen.size(), "one retry");
    checker(START)
        .check(seen.get(1).dpop(), "POST", tokenUri(), Optional.empty(), Optional.of("n-1"));
    client.reportUnauthorized("t2");
    assertEquals("t3", client.token());
    checker(START)
        .check(seen.get(2).dpop(), "POST", tokenUri(), Optional.empty(), Optional.of("n-2"));
    assertThrows(
        DpopProofException.class,
        () ->
            checker(START)
                .check(
                    seen.get(0).dpop(), "POST", tokenUri(), Optional.empty(), Optional.of("n-1")),
        "the first proof had no nonce");
  }

  @Test
  void whenTheNonceIsRefusedAgainThenTheClientStopsAfterOneRetry() {
    answers =
        n ->
            new Answer(400, "n-" + n, "{\"error\":\"use_dpop_nonce\",\"error_description\":\"x\"}");
    TokenClientException refused = assertThrows(TokenClientException.class, client(EC)::token);
    assertEquals(400, refused.status());
    assertEquals("use_dpop_nonce", refused.error());
    assertEquals(2, seen.size());
  }

  @Test
  void whenUseDpopNonceComesWithoutANonceThenItIsFinal() {
    answers = n -> new Answer(400, null, "{\"error\":\"use_dpop_nonce\"}");
    assertThrows(TokenClientException.class, client(EC)::token);
    assertEquals(1, seen.size(), "nothing to retry with");
  }

  @Test
  void whenAnInvalidDpopProofIsAnsweredThenItIsFinalAndNamed() {
    answers =
        n ->
            new Answer(
                400,
                null,
                "{\"error\":\"invalid_dpop_proof\",\"error_description\":\"the DPoP proof's iat is"
                    + " in the future: check the clock\"}");
    TokenClientException refused = assertThrows(TokenClientException.class, client(EC)::token);
    assertEquals("invalid_dpop_proof", refused.error());
    assertTrue(refused.description().contains("check the clock"));
    assertEquals(1, seen.size());
  }

  @Test
  void whenAnApiCallIsMadeThenItsProofNamesTheCallAndTheTokensHash() throws Exception {
    TokenClient client = client(EC);
    Map<String, String> headers = client.headersFor("GET", URI.create(API + "?page=2#top"));
    assertEquals("DPoP t1", headers.get("Authorization"));
    assertEquals("DPoP t1", client.authorization());
    var checked =
        checker(START)
            .check(
                List.of(headers.get("DPoP")),
                "GET",
                API,
                Optional.of(DpopProofs.accessTokenHash("t1")),
                Optional.empty());
    assertEquals(client.dpopThumbprint().orElseThrow(), checked.thumbprint());
    assertEquals(
        API.toString(),
        SignedJWT.parse(headers.get("DPoP")).getJWTClaimsSet().getStringClaim("htu"));
    checker(START)
        .check(
            List.of(client.proofFor("POST", API, "rs-nonce")),
            "POST",
            API,
            Optional.of(DpopProofs.accessTokenHash("t1")),
            Optional.of("rs-nonce"));
    assertEquals(1, seen.size(), "the cached token");
  }

  @Test
  void whenNimbusVerifiesTheProofsThenItTakesTheTokenRequestsAndTheApiCalls() throws Exception {
    Clock now = Clock.fixed(Instant.now(), ZoneOffset.UTC);
    TokenClient client = client(EC, now);
    String token = client.token();
    Set<JWSAlgorithm> algs = Set.of(JWSAlgorithm.ES256, JWSAlgorithm.RS256);
    JWKThumbprintConfirmation bound =
        new DPoPTokenRequestVerifier(algs, tokenUri(), 60, null)
            .verify(new DPoPIssuer(ID), SignedJWT.parse(seen.get(0).dpop().get(0)));
    assertEquals(client.dpopThumbprint().orElseThrow(), bound.getValue().toString());
    new DPoPProtectedResourceRequestVerifier(algs, 60, null)
        .verify(
            "GET",
            API,
            new DPoPIssuer(ID),
            SignedJWT.parse(client.proofFor("GET", API)),
            new DPoPAccessToken(token),
            bound);
  }

  @Test
  void whenTheServiceGivesABearerTokenThenItIsSentAsBearerWithoutAProof() {
    answers = n -> new Answer(200, null, "{\"access_token\":\"b1\",\"expires_in\":3600}");
    TokenClient client = client(EC);
    assertEquals("Bearer b1", client.authorization());
    assertEquals(Map.of("Authorization", "Bearer b1"), client.headersFor("GET", API));
  }

  @Test
  void whenNoDpopKeyIsSetThenNoProofIsSentAndNoneCanBeMade() {
    answers = n -> new Answer(200, null, "{\"access_token\":\"b1\",\"expires_in\":3600}");
    TokenClient client =
        TokenClient.builder().baseUrl(base()).credentials(ID, "s").clock(clock).build();
    assertEquals("Bearer b1", client.authorization());
    assertEquals(List.of(), seen.get(0).dpop());
    assertTrue(client.dpopThumbprint().isEmpty());
    IllegalStateException none =
        assertThrows(IllegalStateException.class, () -> client.proofFor("GET", API));
    assertTrue(none.getMessage().contains("no DPoP key"), none.getMessage());
  }

  @Test
  void whenTheKeyPairIsUnfitThenBuildRefusesIt() throws Exception {
    KeyPairGenerator p384 = KeyPairGenerator.getInstance("EC");
    p384.initialize(new ECGenParameterSpec("secp384r1"));
    KeyPairGenerator small = KeyPairGenerator.getInstance("RSA");
    small.initialize(1024);
    KeyPair mixed = new KeyPair(generate("EC").getPublic(), EC.getPrivate());
    for (KeyPair unfit : List.of(p384.generateKeyPair(), small.generateKeyPair(), mixed)) {
      IllegalStateException refused =
          assertThrows(IllegalStateException.class, () -> client(unfit), unfit.toString());
      assertTrue(refused.getMessage().startsWith("dpop"), refused.getMessage());
    }
  }

  @Test
  void whenTheClientIsShownThenTheKeyIsNot() {
    String shown = new DpopKey(EC).toString();
    assertTrue(shown.startsWith("DpopKey[ES256, jkt="), shown);
    assertTrue(shown.length() < 80, shown);
  }

  static KeyPair generate(String algorithm) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      if (algorithm.equals("EC")) {
        generator.initialize(new ECGenParameterSpec("secp256r1"));
      } else {
        generator.initialize(2048);
      }
      return generator.generateKeyPair();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
