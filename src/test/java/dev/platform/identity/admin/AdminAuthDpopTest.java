package dev.platform.identity.admin;

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

import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.jose.DpopSigner;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.tls.BoundCaller;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.DpopRequest;
import dev.platform.identity.verify.TestProofs;
import dev.platform.identity.verify.TestTokens;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 item 4: the administration API admits a DPoP-bound token (RFC 9449 §7) as {@code
 * Authorization: DPoP} with a proof whose {@code htu} is the URL as the service publishes it, the
 * issuer followed by the path, never as rebuilt from the request's host. The request is faked; the
 * account store is H2.
 */
class AdminAuthDpopTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final KeyPair CLIENT_KEY = TestProofs.ecKeyPair();
  private static final String PATH = "admin/v1/service-accounts";
  private static final URI PUBLISHED = URI.create(ISSUER + "/" + PATH);
  private static final String ADMIN_TOKEN = token(AdminAuth.ADMIN);

  private final Database database = TestDatabases.h2();
  private final AdminAuth auth =
      new AdminAuth(
          URI.create(ISSUER + "/"),
          BearerVerifier.builder()
              .issuer(ISSUER)
              .clock(CLOCK)
              .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
              .build(),
          new BoundCaller("CN=admin", AdminAuth.ADMIN).accounts(database),
          new AuditLog(CLOCK),
          List.of(),
          new Revocations(ISSUER, database.dataSource(), Duration.ofHours(24), CLOCK));

  @AfterEach
  void close() {
    database.close();
  }

  private static String token(String scope) {
    return TestTokens.signed(
        boundToKey(serviceAccount().claim("scopes", List.of(scope)), CLIENT_KEY),
        KEYS.getPrivate());
  }

  @Test
  void whenTheProofNamesThePublishedUrlThenTheCallerIsAdmitted() {
    Map<String, Object> properties = new HashMap<>();
    String proof = nimbus(CLIENT_KEY, "GET", PUBLISHED, NOW, ADMIN_TOKEN);

    auth.admit(request(properties, proof), "DPoP " + ADMIN_TOKEN, List.of(AdminAuth.ADMIN));

    AdminAuth.Caller caller =
        (AdminAuth.Caller) properties.get(AdminAuth.class.getName() + ".caller");
    assertEquals(CLIENT_ID, caller.token().clientId());
  }

  @Test
  void whenTheProofNamesTheUrlAsTheHostHeaderMadeItThen401InvalidDpopProof() {
    String proof =
        nimbus(CLIENT_KEY, "GET", URI.create("http://10.0.0.7:8080/" + PATH), NOW, ADMIN_TOKEN);

    ApiError refused =
        assertThrows(
            ApiError.class,
            () ->
                auth.admit(
                    request(new HashMap<>(), proof),
                    "DPoP " + ADMIN_TOKEN,
                    List.of(AdminAuth.ADMIN)));

    assertEquals(401, refused.status());
    assertTrue(
        refused.challenge().orElseThrow().startsWith("DPoP error=\"invalid_dpop_proof\""),
        refused.challenge().toString());
  }

  @Test
  void whenADpopAdminTokenIsSentAsBearerOrReplayedThen401() {
    String proof = nimbus(CLIENT_KEY, "GET", PUBLISHED, NOW, ADMIN_TOKEN);
    auth.admit(request(new HashMap<>(), proof), "DPoP " + ADMIN_TOKEN, List.of(AdminAuth.ADMIN));

    for (String authorization : List.of("Bearer " + ADMIN_TOKEN, "DPoP " + ADMIN_TOKEN)) {
      ApiError refused =
          assertThrows(
              ApiError.class,
              () ->
                  auth.admit(
                      request(new HashMap<>(), proof), authorization, List.of(AdminAuth.ADMIN)));
      assertEquals(401, refused.status());
    }
  }

  @Test
  void whenADpopTokenLacksTheScopeThen403InTheDpopScheme() {
    String token = token("catalog:products.view");
    String proof = nimbus(CLIENT_KEY, "GET", PUBLISHED, NOW, token);

    ApiError refused =
        assertThrows(
            ApiError.class,
            () ->
                auth.admit(
                    request(new HashMap<>(), proof), "DPoP " + token, List.of(AdminAuth.ADMIN)));

    assertEquals(403, refused.status());
    assertEquals(
        Optional.of(
            "DPoP error=\"insufficient_scope\", scope=\"identity:admin\", algs=\"ES256 RS256 PS256\""),
        refused.challenge());
    // The attacker's review: a refused caller's proof leaves nothing in the replay cache, so a
    // token that may not administer cannot fill it. The same proof is refused for its scope again,
    // never as a replay.
    ApiError again =
        assertThrows(
            ApiError.class,
            () ->
                auth.admit(
                    request(new HashMap<>(), proof), "DPoP " + token, List.of(AdminAuth.ADMIN)));
    assertEquals(403, again.status(), again.getMessage());
  }

  /**
   * The console presents its session's token in process with a proof it made itself ({@link
   * DpopSigner}, for {@link AdminAuth#dpopTarget}): that proof is judged, never the request's own
   * {@code DPoP} header.
   */
  @Test
  void whenTheDpopRequestIsGivenThenItsProofIsJudgedAndNotTheHeaders() {
    DpopSigner signer = new DpopSigner(CLIENT_KEY, new SecureRandom());
    ContainerRequestContext request = request(new HashMap<>(), "not a proof");
    URI target = auth.dpopTarget(request);
    assertEquals(PUBLISHED, target);
    String proof = signer.proof("GET", target, null, ADMIN_TOKEN, NOW);

    auth.admit(
        request,
        "DPoP " + ADMIN_TOKEN,
        new DpopRequest(List.of(proof), "GET", target),
        List.of(AdminAuth.ADMIN));

    String good = nimbus(CLIENT_KEY, "GET", PUBLISHED, NOW, ADMIN_TOKEN);
    String otherHost =
        signer.proof("GET", URI.create("http://10.0.0.7:8080/" + PATH), null, ADMIN_TOKEN, NOW);
    ApiError refused =
        assertThrows(
            ApiError.class,
            () ->
                auth.admit(
                    request(new HashMap<>(), good),
                    "DPoP " + ADMIN_TOKEN,
                    new DpopRequest(List.of(otherHost), "GET", target),
                    List.of(AdminAuth.ADMIN)));
    assertEquals(401, refused.status());
  }

  private static ContainerRequestContext request(Map<String, Object> properties, String proof) {
    MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
    headers.add("DPoP", proof);
    ExtendedUriInfo uri =
        (ExtendedUriInfo)
            Proxy.newProxyInstance(
                AdminAuthDpopTest.class.getClassLoader(),
                new Class<?>[] {ExtendedUriInfo.class},
                (p, method, args) -> method.getName().equals("getPath") ? PATH : null);
    return (ContainerRequestContext)
        Proxy.newProxyInstance(
            AdminAuthDpopTest.class.getClassLoader(),
            new Class<?>[] {ContainerRequestContext.class},
            (p, method, args) ->
                switch (method.getName()) {
                  case "getUriInfo" -> uri;
                  case "getMethod" -> "GET";
                  case "getHeaders" -> headers;
                  case "getProperty" -> properties.get((String) args[0]);
                  case "setProperty" -> properties.put((String) args[0], args[1]);
                  default -> null;
                });
  }
}
