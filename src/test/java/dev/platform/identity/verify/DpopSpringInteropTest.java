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
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
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
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.DPoPAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.web.DPoPAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.oauth2.server.resource.web.authentication.DPoPAuthenticationConverter;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.FilterChainProxy;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.web.filter.RequestContextFilter;

/**
 * Issue 40 item 4 with a verifier we did not write: Spring Security's resource server (7.1.2) takes
 * a token of our shape bound by {@code cnf.jkt} with a Nimbus-made proof, as {@code BearerVerifier}
 * does, and refuses it without one. The token is minted with a test RSA key (the token endpoint's
 * DPoP tokens are being built in parallel), and Spring's decoder is given that key directly, as
 * {@code NimbusJwtDecoder.withPublicKey}; Spring checks times by the system clock, so the token and
 * proofs here are made at the real time, not a fixed one.
 *
 * <p>Spring's DPoP support is wired as its {@code DPoPAuthenticationConfigurer} (in {@code
 * spring-security-config}, not a dependency here) wires it: an {@code AuthenticationFilter} with a
 * {@code DPoPAuthenticationConverter} for {@code Authorization: DPoP} requests, over a {@code
 * DPoPAuthenticationProvider} that verifies the token with a {@code JwtAuthenticationProvider} and
 * then the proof; failures answered by {@code DPoPAuthenticationEntryPoint}; and the {@code
 * BearerTokenAuthenticationFilter} for Bearer requests.
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
    ProviderManager tokens = new ProviderManager(new JwtAuthenticationProvider(decoder));
    AuthenticationFilter dpop =
        new AuthenticationFilter(
            new ProviderManager(new DPoPAuthenticationProvider(tokens)),
            new DPoPAuthenticationConverter());
    dpop.setRequestMatcher(
        request -> {
          String authorization = request.getHeader("Authorization");
          return authorization != null && authorization.regionMatches(true, 0, "DPoP ", 0, 5);
        });
    dpop.setSuccessHandler((request, response, authentication) -> {});
    dpop.setFailureHandler(
        new AuthenticationEntryPointFailureHandler(new DPoPAuthenticationEntryPoint()));
    dpop.setSecurityContextRepository(new RequestAttributeSecurityContextRepository());
    EmbeddedTomcat.addFilter(context, "requestContext", filter(new RequestContextFilter()), "/*");
    EmbeddedTomcat.addFilter(
        context,
        "springSecurityFilterChain",
        filter(
            new FilterChainProxy(
                new DefaultSecurityFilterChain(
                    AnyRequestMatcher.INSTANCE,
                    dpop,
                    new BearerTokenAuthenticationFilter(tokens)))),
        "/*");
    EmbeddedTomcat.addServlet(context, "whoami", new WhoAmI(), "/*");
  }

  private static FilterDef filter(jakarta.servlet.Filter filter) {
    FilterDef def = new FilterDef();
    def.setFilter(filter);
    def.setFilterClass(filter.getClass().getName());
    return def;
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

  /** Who the authenticated caller is, by Spring's security context. */
  private static final class WhoAmI extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
      if (authentication == null || !authentication.isAuthenticated()) {
        response.sendError(403, "no authentication");
        return;
      }
      response.setContentType("text/plain");
      response.getWriter().print(authentication.getName());
    }
  }
}
