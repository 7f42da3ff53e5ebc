package dev.platform.identity.verify.jaxrs;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.boundTo;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.tls.TestPki;
import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import dev.platform.identity.verify.TestTokens;
import dev.platform.identity.verify.VerifiedToken;
import io.jsonwebtoken.JwtBuilder;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import java.io.IOException;
import java.nio.file.Files;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: the JAX-RS filter in Jersey on embedded Tomcat reads the client certificate from the
 * servlet attribute {@code jakarta.servlet.request.X509Certificate}, as a request property. A
 * servlet filter in front stands in for the container's TLS: it sets the attribute to the
 * certificate the test header {@code X-Test-Certificate} names.
 */
class BearerTokenFilterBindingTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final TestPki CA = TestPki.authority("JAX-RS CA");
  private static final Map<String, X509Certificate> CERTIFICATES =
      Map.of(
          "client", CA.client("CN=orders").certificate(),
          "other", CA.client("CN=orders").certificate());

  private static EmbeddedTomcat tomcat;

  @BeforeAll
  static void start() throws Exception {
    java.nio.file.Path base = Files.createTempDirectory("jaxrs-binding");
    tomcat =
        EmbeddedTomcat.start(
            base,
            context -> {
              EmbeddedTomcat.addServlet(context, "open", jersey(false), "/open/*");
              EmbeddedTomcat.addServlet(context, "strict", jersey(true), "/strict/*");
              FilterDef tls = new FilterDef();
              tls.setFilter(presentingTheNamedCertificate());
              tls.setFilterClass(Filter.class.getName());
              EmbeddedTomcat.addFilter(context, "tls", tls, "/*");
            });
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.close();
  }

  private static Filter presentingTheNamedCertificate() {
    return (request, response, chain) -> {
      String name = ((HttpServletRequest) request).getHeader("X-Test-Certificate");
      if (name != null) {
        request.setAttribute(
            BearerCheck.CERTIFICATE_ATTRIBUTE, new X509Certificate[] {CERTIFICATES.get(name)});
      }
      chain.doFilter(request, response);
    };
  }

  private static ServletContainer jersey(boolean bindingRequired) {
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
            .requireCertificateBinding(bindingRequired)
            .build();
    return new ServletContainer(
        new ResourceConfig(Guarded.class).register(new BearerTokenFilter(verifier)));
  }

  private static final String BOUND = bearer(boundTo(serviceAccount(), CERTIFICATES.get("client")));
  private static final String UNBOUND = bearer(serviceAccount());

  private static String bearer(JwtBuilder token) {
    return "Authorization: Bearer " + TestTokens.signed(token, KEYS.getPrivate());
  }

  private static void assertRefused(Answer answer, String message) {
    assertEquals(401, answer.status(), answer.body());
    assertEquals(
        "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE,
        answer.header("WWW-Authenticate"));
    assertEquals("{\"success\":false,\"message\":\"" + message + "\"}", answer.body());
  }

  @Test
  void whenTheBoundTokenComesWithItsCertificateThenTheResourceRuns() throws IOException {
    Answer answer = tomcat.get("/open/guarded", BOUND, "X-Test-Certificate: client");

    assertEquals(200, answer.status(), answer.body());
    assertEquals(CLIENT_ID, answer.body());
  }

  @Test
  void whenTheBoundTokenComesWithoutOrWithAnotherCertificateThen401InvalidToken()
      throws IOException {
    assertRefused(
        tomcat.get("/open/guarded", BOUND), "token bound to a client certificate not presented");
    assertRefused(
        tomcat.get("/open/guarded", BOUND, "X-Test-Certificate: other"),
        "token bound to another client certificate");
  }

  @Test
  void whenTheVerifierRequiresBindingThenAnUnboundTokenIsRefused() throws IOException {
    assertEquals(200, tomcat.get("/open/guarded", UNBOUND).status());
    assertRefused(
        tomcat.get("/strict/guarded", UNBOUND, "X-Test-Certificate: client"),
        "token not bound to a client certificate");
    assertEquals(200, tomcat.get("/strict/guarded", BOUND, "X-Test-Certificate: client").status());
  }

  /** Needs any token; answers its client id. */
  @Path("guarded")
  public static class Guarded {
    @GET
    @RequireScopes({})
    public String who(@Context ContainerRequestContext request) {
      return ((VerifiedToken) request.getProperty(BearerTokenFilter.VERIFIED_TOKEN)).clientId();
    }
  }
}
