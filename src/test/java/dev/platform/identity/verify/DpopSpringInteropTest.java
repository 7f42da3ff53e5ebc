package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestProofs.boundToKey;
import static dev.platform.identity.verify.TestProofs.nimbus;
import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.apache.catalina.Context;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Issue 40 item 4 with a verifier we did not write: Spring Security's resource server (7.1.2) takes
 * a token of our shape bound by {@code cnf.jkt} with a Nimbus-made proof, as {@code BearerVerifier}
 * does, and refuses it without one. The token is minted with a test RSA key (the token endpoint's
 * DPoP tokens are being built in parallel), and Spring's decoder is given that key directly, as
 * {@code NimbusJwtDecoder.withPublicKey}; Spring checks times by the system clock, so the token and
 * proofs here are made at the real time, not a fixed one.
 *
 * <p>Spring's DPoP support is wired as its own configurer would ({@link SpringResourceServer}).
 */
class DpopSpringInteropTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair CLIENT_KEY = TestProofs.ecKeyPair();
  private static final Instant NOW = Instant.now();
  private static final String TOKEN =
      TestTokens.signed(
          boundToKey(TestTokens.serviceAccount(), CLIENT_KEY)
              .issuedAt(Date.from(NOW.minusSeconds(5)))
              .notBefore(Date.from(NOW.minusSeconds(5)))
              .expiration(Date.from(NOW.plus(Duration.ofMinutes(10)))),
          KEYS.getPrivate());

  private static EmbeddedTomcat spring;

  @BeforeAll
  static void start(@TempDir Path base) throws Exception {
    spring = EmbeddedTomcat.start(base, DpopSpringInteropTest::resourceServer);
  }

  @AfterAll
  static void stop() throws Exception {
    spring.close();
  }

  private static void resourceServer(Context context) {
    NimbusJwtDecoder decoder =
        NimbusJwtDecoder.withPublicKey((RSAPublicKey) KEYS.getPublic()).build();
    decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(ISSUER));
    SpringResourceServer.wire(context, decoder);
  }

  /** The URL Spring rebuilds: the test client sends {@code Host: 127.0.0.1}. */
  private static final URI ORDERS = URI.create("http://127.0.0.1/orders");

  private static String proof(String method, URI uri) {
    return "DPoP: " + nimbus(CLIENT_KEY, method, uri, Instant.now(), TOKEN);
  }

  @Test
  void whenSpringGetsOurDpopTokenWithAProofThenItAcceptsIt() throws IOException {
    Answer answer = spring.get("/orders", "Authorization: DPoP " + TOKEN, proof("GET", ORDERS));

    assertEquals(200, answer.status(), answer.body() + " " + answer.headers());
    assertEquals(CLIENT_ID, answer.body());
  }

  @Test
  void whenSpringGetsOurDpopTokenWithoutAProofOrWithABadOneThenItRefusesIt() throws IOException {
    Answer without = spring.get("/orders", "Authorization: DPoP " + TOKEN);
    Answer otherUrl =
        spring.get(
            "/orders",
            "Authorization: DPoP " + TOKEN,
            proof("GET", URI.create("http://127.0.0.1/admin")));
    String once = proof("GET", ORDERS);
    Answer first = spring.get("/orders", "Authorization: DPoP " + TOKEN, once);
    Answer replay = spring.get("/orders", "Authorization: DPoP " + TOKEN, once);

    for (Answer refused : List.of(without, otherUrl, replay)) {
      assertEquals(401, refused.status(), refused.headers().toString());
      assertTrue(
          refused.header("WWW-Authenticate").startsWith("DPoP "),
          refused.header("WWW-Authenticate"));
    }
    assertEquals(200, first.status());
  }

  /** RFC 9449 §7.2, as Spring reads it: a token with {@code cnf.jkt} is no bearer token. */
  @Test
  void whenSpringGetsOurDpopTokenAsBearerThenItRefusesIt() throws IOException {
    Answer asBearer = spring.get("/orders", "Authorization: Bearer " + TOKEN);

    assertEquals(401, asBearer.status(), asBearer.headers().toString());
    assertTrue(
        asBearer.header("WWW-Authenticate").startsWith("Bearer error=\"invalid_token\""),
        asBearer.header("WWW-Authenticate"));
  }

  @Test
  void whenOurVerifierGetsTheSameTokenThenItAgreesWithSpring() {
    BearerVerifier ours =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(Clock.systemUTC())
            .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
            .build();
    String proof = nimbus(CLIENT_KEY, "GET", ORDERS, Instant.now(), TOKEN);
    DpopRequest request = new DpopRequest(List.of(proof), "GET", ORDERS);

    assertEquals(CLIENT_ID, ours.verify("DPoP " + TOKEN, request, null, List.of()).clientId());
    assertThrows(
        UnauthenticatedException.class,
        () ->
            ours.verify(
                "DPoP " + TOKEN, new DpopRequest(List.of(), "GET", ORDERS), null, List.of()));
  }
}
