package dev.platform.identity.verify.jaxrs;

import static dev.platform.identity.verify.TestProofs.boundToKey;
import static dev.platform.identity.verify.TestProofs.nimbus;
import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.EmbeddedTomcat.Answer;
import dev.platform.identity.verify.TestProofs;
import dev.platform.identity.verify.TestTokens;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.net.URI;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40 item 4 at the JAX-RS filter, over real HTTP on embedded Tomcat with Jersey: {@code
 * /api/*} takes proofs for the request URI as Jersey rebuilds it, {@code /based/*} for the API's
 * external base URL whatever the {@code Host} header says.
 */
class BearerTokenFilterDpopTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair CLIENT_KEY = TestProofs.ecKeyPair();
  private static final URI BASE = URI.create("https://api.example.test");
  private static final String TOKEN =
      TestTokens.signed(boundToKey(serviceAccount(), CLIENT_KEY), KEYS.getPrivate());

  private static EmbeddedTomcat tomcat;

  @BeforeAll
  static void start(@TempDir java.nio.file.Path base) throws Exception {
    tomcat =
        EmbeddedTomcat.start(
            base,
            context -> {
              EmbeddedTomcat.addServlet(context, "api", jersey(List.of()), "/api/*");
              EmbeddedTomcat.addServlet(context, "based", jersey(List.of(BASE)), "/based/*");
            });
  }

  @AfterAll
  static void stop() throws Exception {
    tomcat.close();
  }

  private static ServletContainer jersey(List<URI> bases) {
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(ISSUER)
            .clock(CLOCK)
            .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
            .build();
    return new ServletContainer(
        new ResourceConfig(Orders.class).register(new BearerTokenFilter(verifier, bases)));
  }

  private static String proof(String method, URI uri) {
    return "DPoP: " + nimbus(CLIENT_KEY, method, uri, NOW, TOKEN);
  }

  @Test
  void whenADpopTokenComesWithItsProofThenItPassesUnderTheDpopScheme() throws IOException {
    Answer answer =
        tomcat.get(
            "/api/orders",
            "Authorization: DPoP " + TOKEN,
            proof("GET", URI.create("http://127.0.0.1/api/orders")));

    assertEquals(200, answer.status(), answer.body());
    assertEquals(CLIENT_ID + " DPoP", answer.body());
  }

  @Test
  void whenTheApiNamesItsBaseUrlThenTheProofMustNameItAndReplaysAreRefused() throws IOException {
    String proof = proof("GET", BASE.resolve("/based/orders"));
    Answer first = tomcat.get("/based/orders", "Authorization: dpop " + TOKEN, proof);
    Answer replay = tomcat.get("/based/orders", "Authorization: dpop " + TOKEN, proof);
    Answer local =
        tomcat.get(
            "/based/orders",
            "Authorization: DPoP " + TOKEN,
            proof("GET", URI.create("http://127.0.0.1/based/orders")));

    assertEquals(200, first.status(), first.body());
    for (Answer refused : List.of(replay, local)) {
      assertEquals(401, refused.status());
      assertTrue(
          refused.header("WWW-Authenticate").startsWith("DPoP error=\"invalid_dpop_proof\""),
          refused.header("WWW-Authenticate"));
    }
  }

  @Test
  void whenADpopTokenIsSentAsBearerOrWithoutAProofThen401() throws IOException {
    Answer bearer =
        tomcat.get(
            "/api/orders",
            "Authorization: Bearer " + TOKEN,
            proof("GET", URI.create("http://127.0.0.1/api/orders")));
    Answer noProof = tomcat.get("/api/orders", "Authorization: DPoP " + TOKEN);

    assertEquals(
        "Bearer error=\"invalid_token\"" + TestTokens.DPOP_CHALLENGE,
        bearer.header("WWW-Authenticate"));
    assertEquals(401, noProof.status());
    assertTrue(noProof.body().contains("exactly one DPoP header"), noProof.body());
  }

  /** A resource that needs a token. */
  @Path("orders")
  @RequireScopes("catalog:products.view")
  public static class Orders {
    @GET
    public String caller(@Context SecurityContext security) {
      return security.getUserPrincipal().getName() + " " + security.getAuthenticationScheme();
    }
  }
}
