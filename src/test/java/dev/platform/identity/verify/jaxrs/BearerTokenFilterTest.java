package dev.platform.identity.verify.jaxrs;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.secondsFromNow;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import dev.platform.identity.verify.PublicKeyLocator;
import dev.platform.identity.verify.TestTokens;
import dev.platform.identity.verify.VerifiedToken;
import io.jsonwebtoken.JwtBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JAX-RS filter in Jersey on embedded Tomcat over real HTTP: {@code /api/*} serves {@link
 * CatalogResource} (an annotated and an unannotated method) and {@link OrdersResource} (annotated
 * class and method) with a verifier on a fixed clock; {@code /down/*} the same with a key source
 * that cannot be reached.
 */
class BearerTokenFilterTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair FOREIGN_KEYS = TestTokens.rsaKeyPair();
  private static final String VIEW = "catalog:products.view";
  private static final String SECRET = "the product list";

  private static EmbeddedTomcat tomcat;

  /** Issue 36: an issuer that starts failing, and the clock of the key source fed by it. */
  private static volatile int issuerStatus = 200;

  private static final dev.platform.identity.key.MutableClock KEYS_CLOCK =
      new dev.platform.identity.key.MutableClock(TestTokens.NOW);
  private static dev.platform.identity.verify.StubServer issuer;

  @BeforeAll
  static void start(@TempDir java.nio.file.Path base) throws Exception {
    issuer = TestTokens.issuer(KID, KEYS, () -> issuerStatus);
    PublicKeyLocator remote =
        dev.platform.identity.verify.RemotePublicKeys.builder()
            .issuer(issuer.uri())
            .clock(KEYS_CLOCK)
            .build();
    PublicKeyLocator keys =
        kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty();
    PublicKeyLocator unreachable =
        kid -> {
          throw new UncheckedIOException(new ConnectException("key source down"));
        };
    tomcat =
        EmbeddedTomcat.start(
            base,
            context -> {
              EmbeddedTomcat.addServlet(context, "api", jersey(keys), "/api/*");
              EmbeddedTomcat.addServlet(context, "down", jersey(unreachable), "/down/*");
              EmbeddedTomcat.addServlet(context, "stale", jersey(remote), "/stale/*");
            });
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.close();
    issuer.close();
  }

  private static ServletContainer jersey(PublicKeyLocator keys) {
    BearerVerifier verifier =
        BearerVerifier.builder().issuer(ISSUER).clock(CLOCK).keyLocator(keys).build();
    ResourceConfig config =
        new ResourceConfig(CatalogResource.class, OrdersResource.class)
            .register(new BearerTokenFilter(verifier));
    return new ServletContainer(config);
  }

  private static String bearer(JwtBuilder token) {
    return "Authorization: Bearer " + TestTokens.signed(token, KEYS.getPrivate());
  }

  private static String bearerWithScopes(String... scopes) {
    return bearer(serviceAccount().claim("scopes", List.of(scopes)));
  }

  private static void assertRefused(Answer answer, int status, String challenge, String message) {
    assertAll(
        () -> assertEquals(status, answer.status()),
        () -> assertEquals(challenge, answer.header("WWW-Authenticate")),
        () -> assertEquals("application/json", answer.header("Content-Type")),
        () -> assertEquals("no-store", answer.header("Cache-Control")),
        () -> assertEquals("{\"success\":false,\"message\":\"" + message + "\"}", answer.body()));
  }

  private static String denied(String scope) {
    return "Bearer error=\"insufficient_scope\", scope=\""
        + scope
        + "\""
        + TestTokens.DPOP_CHALLENGE;
  }

  @Test
  void whenNoAuthorizationHeaderThen401WithABareChallenge() throws IOException {
    assertRefused(
        tomcat.get("/api/catalog/products"),
        401,
        "Bearer" + TestTokens.DPOP_CHALLENGE,
        "missing Authorization header");
  }

  @Test
  void whenBasicSchemeThen401() throws IOException {
    Answer answer = tomcat.get("/api/catalog/products", "Authorization: Basic YWxpY2U6c2VjcmV0");

    assertRefused(
        answer,
        401,
        "Bearer" + TestTokens.DPOP_CHALLENGE,
        "unsupported authorization scheme: use Bearer or DPoP");
  }

  @Test
  void whenSignedByAnotherKeyThen401InvalidToken() throws IOException {
    String forged = TestTokens.signed(serviceAccount(), FOREIGN_KEYS.getPrivate());

    Answer answer = tomcat.get("/api/catalog/products", "Authorization: Bearer " + forged);

    assertRefused(
        answer, 401, "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE, "invalid token");
  }

  @Test
  void whenExpiredThen401TokenExpired() throws IOException {
    Answer answer =
        tomcat.get(
            "/api/catalog/products", bearer(serviceAccount().expiration(secondsFromNow(-61))));

    assertRefused(
        answer, 401, "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE, "token expired");
  }

  @Test
  void whenAnotherIssuerThen401InvalidToken() throws IOException {
    Answer answer =
        tomcat.get(
            "/api/catalog/products", bearer(serviceAccount().issuer("https://evil.example")));

    assertRefused(
        answer, 401, "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE, "invalid token");
  }

  @Test
  void whenTheMethodsScopeIsMissingThen403NamingIt() throws IOException {
    Answer answer = tomcat.get("/api/catalog/products", bearerWithScopes("marketing:*"));

    assertRefused(answer, 403, denied(VIEW), "insufficient scope: requires " + VIEW);
  }

  @Test
  void whenAuthorizationIsSentTwiceThen401EvenIfBothAreValid() throws IOException {
    String good = bearer(serviceAccount());

    Answer answer = tomcat.get("/api/catalog/products", good, good);

    assertRefused(
        answer,
        401,
        "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE,
        "more than one Authorization header");
  }

  @Test
  void whenTheKeySourceCannotBeReachedThen503WithoutChallenge() throws IOException {
    Answer answer = tomcat.get("/down/catalog/products", bearer(serviceAccount()));

    assertRefused(answer, 503, null, "the token cannot be checked now: try again later");
  }

  @Test
  void whenTheIssuerFailsPastTheMaxStalenessThenTheSameTokenGets503() throws IOException {
    String token = bearer(serviceAccount());
    assertEquals(200, tomcat.get("/stale/catalog/products", token).status());
    issuerStatus = 503;
    KEYS_CLOCK.advance(java.time.Duration.ofHours(25));

    Answer answer = tomcat.get("/stale/catalog/products", token);

    assertRefused(answer, 503, null, "the token cannot be checked now: try again later");
  }

  @Test
  void whenTheTokenPassesThenTheResourceSeesTheClientItsScopesAndTheToken() throws IOException {
    Answer answer = tomcat.get("/api/catalog/products", bearer(serviceAccount()));

    assertEquals(200, answer.status(), answer.body());
    assertEquals(
        String.join(
            "\n",
            SECRET,
            "principal=" + CLIENT_ID,
            "scheme=Bearer",
            "secure=true",
            "role " + VIEW + "=true",
            "role marketing:campaigns.edit=true",
            "role catalog:products.edit=false",
            "property=" + CLIENT_ID),
        answer.body());
  }

  @Test
  void whenTheMethodIsNotAnnotatedThenNoTokenIsNeeded() throws IOException {
    Answer without = tomcat.get("/api/catalog/health");
    Answer forged = tomcat.get("/api/catalog/health", "Authorization: Bearer x.y.z");

    assertEquals(200, without.status());
    assertEquals("healthy; principal null", without.body());
    assertEquals(200, forged.status());
  }

  @Test
  void whenTheClassIsAnnotatedThenEveryMethodNeedsItsScope() throws IOException {
    assertRefused(
        tomcat.get("/api/orders"),
        401,
        "Bearer" + TestTokens.DPOP_CHALLENGE,
        "missing Authorization header");
    assertEquals(200, tomcat.get("/api/orders", bearerWithScopes("orders:read")).status());
  }

  @Test
  void whenMethodAndClassAreAnnotatedThenTheTokenNeedsBothScopes() throws IOException {
    Answer writeOnly = tomcat.send("POST", "/api/orders", bearerWithScopes("orders:write"));
    Answer readOnly = tomcat.send("POST", "/api/orders", bearerWithScopes("orders:read"));
    Answer both =
        tomcat.send("POST", "/api/orders", bearerWithScopes("orders:read", "orders:write"));

    assertRefused(
        writeOnly, 403, denied("orders:read"), "insufficient scope: requires orders:read");
    assertRefused(
        readOnly, 403, denied("orders:write"), "insufficient scope: requires orders:write");
    assertEquals(200, both.status());
    assertEquals("order created", both.body());
  }

  @Test
  void whenHeadAsksForAnAnnotatedGetThenItNeedsTheTokenToo() throws IOException {
    assertEquals(401, tomcat.send("HEAD", "/api/catalog/products").status());
  }

  @Test
  void whenOptionsAsksForAnAnnotatedMethodThenItNeverRunsIt() throws IOException {
    Answer answer = tomcat.send("OPTIONS", "/api/catalog/products");

    assertFalse(answer.body().contains(SECRET), answer.body());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "//api/catalog/products",
        "/api//catalog/products",
        "/api/catalog//products",
        "/api/catalog/products/",
        "/api/catalog/products//",
        "/api/CATALOG/products",
        "/api/catalog/PRODUCTS",
        "/api/catalog/products;x=y",
        "/api/catalog;x=y/products",
        "/api/catalog/products%3bx=y",
        "/api/catalog/%2e/products",
        "/api/catalog/%2E/products",
        "/api/catalog/health/%2e%2e/products",
        "/api/catalog/health/../products",
        "/api/./catalog/products",
        "/api/catalog/%70roducts",
        "/api/catalog/products%2f",
        "/api/catalog/products%00",
        "/api/catalog/products?x=1",
        "/api/catalog/products.json",
        "/api/orders/",
        "/api/ORDERS",
        "/api/orders;x=y",
        "/api/orders/%2e",
      })
  void whenThePathIsSpelledOddlyThenNoAnnotatedMethodRunsUnverified(String path)
      throws IOException {
    Answer anonymous = tomcat.get(path);
    Answer unscoped = tomcat.get(path, bearerWithScopes("marketing:*"));

    for (Answer answer : List.of(anonymous, unscoped)) {
      assertTrue(
          Set.of(400, 401, 403, 404, 405).contains(answer.status()),
          path + " answered " + answer.status());
      assertFalse(answer.body().contains(SECRET), path + " answered " + answer.body());
      assertFalse(answer.body().contains("orders listed"), path + " answered " + answer.body());
    }
  }

  /** A resource with an annotated method and one without. */
  @Path("catalog")
  @Produces(MediaType.TEXT_PLAIN)
  public static class CatalogResource {
    @GET
    @Path("products")
    @RequireScopes(VIEW)
    public String products(
        @Context SecurityContext security, @Context ContainerRequestContext request) {
      StringBuilder body = new StringBuilder(SECRET);
      body.append("\nprincipal=").append(security.getUserPrincipal().getName());
      body.append("\nscheme=").append(security.getAuthenticationScheme());
      body.append("\nsecure=").append(security.isSecure());
      for (String role : List.of(VIEW, "marketing:campaigns.edit", "catalog:products.edit")) {
        body.append("\nrole ").append(role).append('=').append(security.isUserInRole(role));
      }
      VerifiedToken token = (VerifiedToken) request.getProperty(BearerTokenFilter.VERIFIED_TOKEN);
      return body.append("\nproperty=").append(token.clientId()).toString();
    }

    @GET
    @Path("health")
    public String health(@Context SecurityContext security) {
      return "healthy; principal " + security.getUserPrincipal();
    }
  }

  /** A resource whose class needs a scope, and one method another one besides. */
  @Path("orders")
  @Produces(MediaType.TEXT_PLAIN)
  @RequireScopes("orders:read")
  public static class OrdersResource {
    @GET
    public String list() {
      return "orders listed";
    }

    @POST
    @RequireScopes("orders:write")
    public String create() {
      return "order created";
    }
  }
}
