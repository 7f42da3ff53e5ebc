package dev.platform.identity.verify.servlet;

import static dev.platform.identity.verify.TestProofs.boundToKey;
import static dev.platform.identity.verify.TestProofs.nimbus;
import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.jose.DpopNonces;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import dev.platform.identity.verify.TestProofs;
import dev.platform.identity.verify.TestTokens;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.catalina.Context;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 40 item 4 at the servlet filter, over real HTTP on embedded Tomcat: {@code /api/*} takes
 * proofs for the request URL as Tomcat rebuilds it, {@code /based/*} for the API's external base
 * URL {@code https://api.example.test} whatever the {@code Host} header says, {@code /nonce/*} asks
 * for server nonces.
 */
class BearerTokenFilterDpopTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair CLIENT_KEY = TestProofs.ecKeyPair();
  private static final URI BASE = URI.create("https://api.example.test");
  private static final String TOKEN =
      TestTokens.signed(boundToKey(serviceAccount(), CLIENT_KEY), KEYS.getPrivate());
  private static final String DPOP_ALGS = "DPoP algs=\"ES256 RS256 PS256\"";
  private static final DpopNonces NONCES = DpopNonces.random(CLOCK, Duration.ofMinutes(5));

  private static EmbeddedTomcat tomcat;

  @BeforeAll
  static void start(@TempDir Path base) throws Exception {
    tomcat = EmbeddedTomcat.start(base, BearerTokenFilterDpopTest::setUp);
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.close();
  }

  private static void setUp(Context context) {
    EmbeddedTomcat.addServlet(context, "whoami", new WhoAmI(), "/api/*", "/based/*", "/nonce/*");
    EmbeddedTomcat.addFilter(
        context,
        "api",
        filter(new BearerTokenFilter(verifier(BearerVerifier.builder()), List.of())),
        "/api/*");
    EmbeddedTomcat.addFilter(
        context,
        "based",
        filter(new BearerTokenFilter(verifier(BearerVerifier.builder()), List.of(), List.of(BASE))),
        "/based/*");
    EmbeddedTomcat.addFilter(
        context,
        "nonce",
        filter(
            new BearerTokenFilter(
                verifier(BearerVerifier.builder().dpopNonces(NONCES)), List.of(), List.of(BASE))),
        "/nonce/*");
  }

  private static FilterDef filter(BearerTokenFilter filter) {
    FilterDef def = new FilterDef();
    def.setFilter(filter);
    def.setFilterClass(BearerTokenFilter.class.getName());
    return def;
  }

  private static BearerVerifier verifier(BearerVerifier.Builder builder) {
    return builder
        .issuer(ISSUER)
        .clock(CLOCK)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .build();
  }

  /**
   * The URL Tomcat rebuilds for {@code path} from the request: the test client sends {@code Host:
   * 127.0.0.1}, without the port it connected to, so the URL has none either.
   */
  private static URI local(String path) {
    return URI.create("http://127.0.0.1" + path);
  }

  private static String proofFor(String method, URI uri) {
    return "DPoP: " + nimbus(CLIENT_KEY, method, uri, NOW, TOKEN);
  }

  private static void assertInvalidProof(Answer answer) {
    assertEquals(401, answer.status(), answer.body());
    String challenge = answer.header("WWW-Authenticate");
    assertTrue(challenge.startsWith("DPoP error=\"invalid_dpop_proof\""), challenge);
    assertTrue(challenge.endsWith("algs=\"ES256 RS256 PS256\""), challenge);
    assertTrue(answer.body().startsWith("{\"success\":false,\"message\":\""), answer.body());
    assertEquals("no-store", answer.header("Cache-Control"));
  }

  @Test
  void whenADpopTokenComesWithAProofForTheRequestUrlThenItPassesAsDpop() throws IOException {
    Answer answer =
        tomcat.get(
            "/api/orders", "Authorization: DPoP " + TOKEN, proofFor("GET", local("/api/orders")));

    assertEquals(200, answer.status(), answer.body());
    assertEquals("client=" + CLIENT_ID + " authType=DPoP", answer.body());
  }

  @ParameterizedTest
  @ValueSource(strings = {"dpop", "DPOP"})
  void whenTheSchemeIsInAnotherCaseThenItPasses(String scheme) throws IOException {
    Answer answer =
        tomcat.get(
            "/api/orders",
            "Authorization: " + scheme + " " + TOKEN,
            proofFor("GET", local("/api/orders")));

    assertEquals(200, answer.status(), answer.body());
  }

  @Test
  void whenTheProofIsReplayedThen401InvalidDpopProof() throws IOException {
    String proof = proofFor("GET", local("/api/orders"));
    assertEquals(200, tomcat.get("/api/orders", "Authorization: DPoP " + TOKEN, proof).status());

    assertInvalidProof(tomcat.get("/api/orders", "Authorization: DPoP " + TOKEN, proof));
  }

  @Test
  void whenTheProofIsForAnotherPathOrMethodThen401() throws IOException {
    assertInvalidProof(
        tomcat.get(
            "/api/orders", "Authorization: DPoP " + TOKEN, proofFor("GET", local("/api/admin"))));
    assertInvalidProof(
        tomcat.get(
            "/api/orders", "Authorization: DPoP " + TOKEN, proofFor("POST", local("/api/orders"))));
  }

  @Test
  void whenTheApiNamesItsBaseUrlThenProofsNameItAndNotTheHostHeader() throws IOException {
    Answer based =
        tomcat.get(
            "/based/orders",
            "Authorization: DPoP " + TOKEN,
            proofFor("GET", BASE.resolve("/based/orders")));
    Answer local =
        tomcat.get(
            "/based/orders",
            "Authorization: DPoP " + TOKEN,
            proofFor("GET", local("/based/orders")));

    assertEquals(200, based.status(), based.body());
    assertInvalidProof(local);
  }

  @Test
  void whenADpopTokenIsSentAsBearerThen401WithBothChallenges() throws IOException {
    Answer answer =
        tomcat.get(
            "/api/orders", "Authorization: Bearer " + TOKEN, proofFor("GET", local("/api/orders")));

    assertEquals(401, answer.status());
    assertEquals("Bearer error=\"invalid_token\", " + DPOP_ALGS, answer.header("WWW-Authenticate"));
    assertTrue(answer.body().contains("token bound to a DPoP key"), answer.body());
  }

  @Test
  void whenThereIsNoAuthorizationThen401NamingBothSchemes() throws IOException {
    Answer answer = tomcat.get("/api/orders", proofFor("GET", local("/api/orders")));

    assertEquals(401, answer.status());
    assertEquals("Bearer, " + DPOP_ALGS, answer.header("WWW-Authenticate"));
  }

  @Test
  void whenAuthorizationOrDpopComesTwiceThen401() throws IOException {
    String proof = proofFor("GET", local("/api/orders"));
    Answer twoAuthorizations =
        tomcat.get(
            "/api/orders", "Authorization: DPoP " + TOKEN, "Authorization: DPoP " + TOKEN, proof);
    Answer twoProofs =
        tomcat.get(
            "/api/orders",
            "Authorization: DPoP " + TOKEN,
            proof,
            proofFor("GET", local("/api/orders")));

    assertEquals(401, twoAuthorizations.status());
    assertTrue(twoAuthorizations.body().contains("more than one Authorization header"));
    assertInvalidProof(twoProofs);
    assertTrue(twoProofs.body().contains("exactly one DPoP header"), twoProofs.body());
  }

  @Test
  void whenTheApiAsksForNoncesThenAProofWithoutOneGetsTheNonceAndOneWithItPasses()
      throws IOException {
    URI target = BASE.resolve("/nonce/orders");
    Answer first =
        tomcat.get("/nonce/orders", "Authorization: DPoP " + TOKEN, proofFor("GET", target));
    String nonce = first.header("DPoP-Nonce");
    Answer second =
        tomcat.get(
            "/nonce/orders",
            "Authorization: DPoP " + TOKEN,
            "DPoP: " + nimbus(CLIENT_KEY, "GET", target, NOW, TOKEN, nonce));

    assertEquals(401, first.status());
    assertTrue(
        first.header("WWW-Authenticate").startsWith("DPoP error=\"use_dpop_nonce\""),
        first.header("WWW-Authenticate"));
    assertEquals(NONCES.current(), nonce);
    assertEquals(200, second.status(), second.body());
  }

  @Test
  void whenAFilterIsDeclaredWithABaseUrlThatHasAPathThenInitFails() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new BearerTokenFilter(
                    verifier(BearerVerifier.builder()),
                    List.of(),
                    List.of(URI.create("https://api.example.test/v1"))));

    assertTrue(e.getMessage().contains("scheme, host and port alone"), e.getMessage());
  }

  /** Says who called, and how. */
  private static final class WhoAmI extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("text/plain");
      response
          .getWriter()
          .write(
              "client="
                  + request.getUserPrincipal().getName()
                  + " authType="
                  + request.getAuthType());
    }
  }
}
