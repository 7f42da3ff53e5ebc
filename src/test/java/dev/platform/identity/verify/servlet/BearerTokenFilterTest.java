package dev.platform.identity.verify.servlet;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.secondsFromNow;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import dev.platform.identity.verify.PublicKeyLocator;
import dev.platform.identity.verify.StubServer;
import dev.platform.identity.verify.TestTokens;
import dev.platform.identity.verify.VerifiedToken;
import io.jsonwebtoken.JwtBuilder;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.catalina.Context;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The servlet filter on embedded Tomcat over real HTTP: {@code /api/*} needs {@code
 * catalog:products.view} (verifier with a fixed clock), {@code /down/*} has a key source that
 * cannot be reached, {@code /declared/*} is set up by init-params as {@code web.xml} would.
 */
class BearerTokenFilterTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair FOREIGN_KEYS = TestTokens.rsaKeyPair();
  private static final String VIEW = "catalog:products.view";

  private static StubServer issuer;
  private static EmbeddedTomcat tomcat;

  /** Issue 36: an issuer that starts failing, and the clock of the key source fed by it. */
  private static volatile int failingStatus = 200;

  private static final dev.platform.identity.key.MutableClock KEYS_CLOCK =
      new dev.platform.identity.key.MutableClock(TestTokens.NOW);
  private static StubServer failing;

  @BeforeAll
  static void start(@TempDir Path base) throws Exception {
    String keySet = jwkSet(KID, (RSAPublicKey) KEYS.getPublic());
    issuer =
        StubServer.start(
            "/api/public-keys",
            request ->
                new StubServer.Reply(200, Map.of("Content-Type", "application/json"), keySet));
    failing = TestTokens.issuer(KID, KEYS, () -> failingStatus);
    tomcat = EmbeddedTomcat.start(base, BearerTokenFilterTest::setUp);
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.close();
    issuer.close();
    failing.close();
  }

  private static void setUp(Context context) {
    EmbeddedTomcat.addServlet(
        context, "whoami", new WhoAmI(), "/api/*", "/down/*", "/declared/*", "/stale/*");
    BearerVerifier stale =
        verifier(
            dev.platform.identity.verify.RemotePublicKeys.builder()
                .issuer(failing.uri())
                .clock(KEYS_CLOCK)
                .build());
    EmbeddedTomcat.addFilter(
        context, "stale", filter(new BearerTokenFilter(stale, List.of())), "/stale/*");
    BearerVerifier unreachable =
        verifier(
            kid -> {
              throw new UncheckedIOException(new ConnectException("key source down"));
            });
    EmbeddedTomcat.addFilter(
        context, "api", filter(new BearerTokenFilter(verifier(), List.of(VIEW))), "/api/*");
    EmbeddedTomcat.addFilter(
        context, "down", filter(new BearerTokenFilter(unreachable, List.of())), "/down/*");
    FilterDef declared = new FilterDef();
    declared.setFilterClass(BearerTokenFilter.class.getName());
    declared.addInitParameter("issuer", issuer.uri().toString());
    declared.addInitParameter("scopes", VIEW + ", marketing:campaigns.edit");
    EmbeddedTomcat.addFilter(context, "declared", declared, "/declared/*");
  }

  private static FilterDef filter(BearerTokenFilter filter) {
    FilterDef def = new FilterDef();
    def.setFilter(filter);
    def.setFilterClass(BearerTokenFilter.class.getName());
    return def;
  }

  private static BearerVerifier verifier() {
    return verifier(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty());
  }

  private static BearerVerifier verifier(PublicKeyLocator keys) {
    return BearerVerifier.builder().issuer(ISSUER).clock(CLOCK).keyLocator(keys).build();
  }

  private static String bearer(JwtBuilder token) {
    return "Authorization: Bearer " + TestTokens.signed(token, KEYS.getPrivate());
  }

  private static void assertRefused(Answer answer, int status, String challenge, String message) {
    assertAll(
        () -> assertEquals(status, answer.status()),
        () -> assertEquals(challenge, answer.header("WWW-Authenticate")),
        () -> assertEquals("application/json", answer.header("Content-Type")),
        () -> assertEquals("no-store", answer.header("Cache-Control")),
        () -> assertEquals("{\"success\":false,\"message\":\"" + message + "\"}", answer.body()));
  }

  @Test
  void whenNoAuthorizationHeaderThen401WithABareChallenge() throws IOException {
    assertRefused(
        tomcat.get("/api/products"),
        401,
        "Bearer" + TestTokens.DPOP_CHALLENGE,
        "missing Authorization header");
  }

  @Test
  void whenBasicSchemeThen401() throws IOException {
    Answer answer = tomcat.get("/api/products", "Authorization: Basic YWxpY2U6c2VjcmV0");

    assertRefused(
        answer,
        401,
        "Bearer" + TestTokens.DPOP_CHALLENGE,
        "unsupported authorization scheme: use Bearer or DPoP");
  }

  @Test
  void whenSignedByAnotherKeyThen401InvalidToken() throws IOException {
    String forged = TestTokens.signed(serviceAccount(), FOREIGN_KEYS.getPrivate());

    Answer answer = tomcat.get("/api/products", "Authorization: Bearer " + forged);

    assertRefused(
        answer, 401, "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE, "invalid token");
  }

  @Test
  void whenExpiredThen401TokenExpired() throws IOException {
    Answer answer =
        tomcat.get("/api/products", bearer(serviceAccount().expiration(secondsFromNow(-61))));

    assertRefused(
        answer, 401, "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE, "token expired");
  }

  @Test
  void whenAnotherIssuerThen401InvalidToken() throws IOException {
    Answer answer =
        tomcat.get("/api/products", bearer(serviceAccount().issuer("https://evil.example")));

    assertRefused(
        answer, 401, "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE, "invalid token");
  }

  @Test
  void whenARequiredScopeIsMissingThen403NamingIt() throws IOException {
    Answer answer =
        tomcat.get(
            "/api/products", bearer(serviceAccount().claim("scopes", List.of("marketing:*"))));

    assertRefused(
        answer,
        403,
        "Bearer error=\"insufficient_scope\", scope=\"" + VIEW + "\"" + TestTokens.DPOP_CHALLENGE,
        "insufficient scope: requires " + VIEW);
  }

  @Test
  void whenAuthorizationIsSentTwiceThen401EvenIfBothAreValid() throws IOException {
    String good = bearer(serviceAccount());

    Answer answer = tomcat.get("/api/products", good, good);

    assertRefused(
        answer,
        401,
        "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE,
        "more than one Authorization header");
  }

  @Test
  void whenTheKeySourceCannotBeReachedThen503WithoutChallenge() throws IOException {
    Answer answer = tomcat.get("/down/products", bearer(serviceAccount()));

    assertRefused(answer, 503, null, "the token cannot be checked now: try again later");
  }

  @Test
  void whenTheIssuerFailsPastTheMaxStalenessThenTheSameTokenGets503() throws IOException {
    String token = bearer(serviceAccount());
    assertEquals(200, tomcat.get("/stale/products", token).status());
    failingStatus = 503;
    KEYS_CLOCK.advance(java.time.Duration.ofHours(25));

    Answer answer = tomcat.get("/stale/products", token);

    assertRefused(answer, 503, null, "the token cannot be checked now: try again later");
  }

  @Test
  void whenTheTokenPassesThenTheServletSeesTheClientItsScopesAndTheToken() throws IOException {
    Answer answer = tomcat.get("/api/products", bearer(serviceAccount()));

    assertEquals(200, answer.status());
    assertEquals(
        String.join(
            "\n",
            "principal=" + CLIENT_ID,
            "remoteUser=" + CLIENT_ID,
            "authType=Bearer",
            "role " + VIEW + "=true",
            "role marketing:campaigns.edit=true",
            "role catalog:products.edit=false",
            "role **=true",
            "attribute=" + CLIENT_ID),
        answer.body());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "//api/products",
        "/api//products",
        "/./api/products",
        "/down/../api/products",
        "/down/%2e%2e/api/products",
        "/%61pi/products",
        "/api;x=y/products",
        "/API/products",
        "/Api/products",
      })
  void whenThePathIsSpelledOddlyThenNoTokenStillGetsNothing(String path) throws IOException {
    Answer answer = tomcat.get(path);

    // 401 where Tomcat's decoded, normalized path falls under /api/*, else 404.
    assertTrue(Set.of(401, 404).contains(answer.status()), path + " answered " + answer.status());
    assertFalse(answer.body().contains("principal"), answer.body());
  }

  @Test
  void whenDeclaredWithInitParamsThenKeysComeFromTheIssuerAndTheScopesAreRequired()
      throws IOException {
    Instant now = Instant.now(); // this filter's verifier runs on the system clock
    JwtBuilder token =
        serviceAccount()
            .issuer(issuer.uri().toString())
            .issuedAt(Date.from(now.minusSeconds(60)))
            .notBefore(Date.from(now.minusSeconds(60)))
            .expiration(Date.from(now.plusSeconds(3600)));

    Answer passed = tomcat.get("/declared/x", bearer(token));
    Answer refused = tomcat.get("/declared/x", bearer(token.claim("scopes", List.of(VIEW))));

    assertEquals(200, passed.status(), passed.body());
    assertTrue(passed.body().startsWith("principal=" + CLIENT_ID), passed.body());
    assertRefused(
        refused,
        403,
        "Bearer error=\"insufficient_scope\", scope=\"marketing:campaigns.edit\""
            + TestTokens.DPOP_CHALLENGE,
        "insufficient scope: requires marketing:campaigns.edit");
  }

  @Test
  void whenDeclaredWithoutAnIssuerThenInitFailsNamingTheParam() {
    ServletException e =
        assertThrows(ServletException.class, () -> new BearerTokenFilter().init(config(Map.of())));

    assertTrue(e.getMessage().contains("init-param issuer"), e.getMessage());
  }

  private static FilterConfig config(Map<String, String> params) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "bearer";
      }

      @Override
      public ServletContext getServletContext() {
        return null;
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }

  /** Says what the request tells about its caller. */
  private static final class WhoAmI extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      VerifiedToken token = (VerifiedToken) request.getAttribute(BearerTokenFilter.VERIFIED_TOKEN);
      StringBuilder body = new StringBuilder();
      body.append("principal=").append(request.getUserPrincipal().getName());
      body.append("\nremoteUser=").append(request.getRemoteUser());
      body.append("\nauthType=").append(request.getAuthType());
      for (String role : List.of(VIEW, "marketing:campaigns.edit", "catalog:products.edit", "**")) {
        body.append("\nrole ").append(role).append('=').append(request.isUserInRole(role));
      }
      body.append("\nattribute=").append(token.clientId());
      response.setContentType("text/plain");
      response.getWriter().write(body.toString());
    }
  }

  private static String jwkSet(String kid, RSAPublicKey key) {
    Base64.Encoder base64url = Base64.getUrlEncoder().withoutPadding();
    return "{\"keys\":[{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\""
        + kid
        + "\",\"n\":\""
        + base64url.encodeToString(unsigned(key.getModulus().toByteArray()))
        + "\",\"e\":\""
        + base64url.encodeToString(unsigned(key.getPublicExponent().toByteArray()))
        + "\"}]}";
  }

  /** A BigInteger's bytes without the sign byte that JWK's base64urlUInt must not have. */
  private static byte[] unsigned(byte[] bytes) {
    return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
  }
}
