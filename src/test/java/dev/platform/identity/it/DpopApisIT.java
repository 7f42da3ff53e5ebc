package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import dev.platform.identity.verify.EmbeddedTomcat;
import dev.platform.identity.verify.SpringResourceServer;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Issue 40 item 4 end to end: a DPoP token the service's own token endpoint issued (Nimbus SDK
 * client, ES256 key) is taken at {@code /admin/v1} with a proof for the URL as the service
 * publishes it ({issuer}/admin/v1/...), refused there as Bearer, replayed, or with a proof for
 * another host name of the same server; and Spring Security's resource server, keys from {@code
 * /api/public-keys}, takes it with a proof and refuses it without.
 */
@ExtendWith(ArquillianExtension.class)
class DpopApisIT {
  static final URI TOKEN_ENDPOINT = URI.create(Deployments.ISSUER + "/oauth/token");
  static final URI ACCOUNTS = URI.create(Deployments.ISSUER + "/admin/v1/service-accounts");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("dpop-apis-" + UUID.randomUUID(), Map.of());
  }

  @ArquillianResource URL base;

  @TempDir Path tomcatBase;

  /** An identity:admin account's DPoP token, bound to {@code key}. */
  String dpopAdminToken(ECKey key) throws Exception {
    HttpResponse<String> created =
        new Http(base)
            .admin(
                "POST",
                "/service-accounts",
                new Http(base).adminToken(),
                "{\"name\":\"dpop-admin\",\"organization_id\":\"org-d\","
                    + "\"scopes\":[\"identity:admin\"],\"service_name\":\"identity\"}");
    assertEquals(201, created.statusCode(), created.body());
    HTTPRequest request =
        new TokenRequest(
                TOKEN_ENDPOINT,
                new ClientSecretBasic(
                    new ClientID(Http.json(created).get("client_id").asText()),
                    new Secret(Http.json(created).get("client_secret").asText())),
                new ClientCredentialsGrant())
            .toHTTPRequest();
    request.setDPoP(
        new DefaultDPoPProofFactory(key, JWSAlgorithm.ES256).createDPoPJWT("POST", TOKEN_ENDPOINT));
    TokenResponse answer = TokenResponse.parse(request.send());
    assertTrue(answer.indicatesSuccess(), answer.toString());
    AccessToken token = answer.toSuccessResponse().getTokens().getAccessToken();
    assertEquals(AccessTokenType.DPOP, token.getType());
    return token.getValue();
  }

  static String proof(ECKey key, String method, URI uri, String token) throws Exception {
    SignedJWT proof =
        new DefaultDPoPProofFactory(key, JWSAlgorithm.ES256)
            .createDPoPJWT(method, uri, new DPoPAccessToken(token));
    return proof.serialize();
  }

  HttpResponse<String> accounts(String authorization, String proof) {
    return proof == null
        ? new Http(base).send("GET", "/admin/v1/service-accounts", null, authorization)
        : new Http(base)
            .send("GET", "/admin/v1/service-accounts", null, authorization, "DPoP: " + proof);
  }

  @Test
  void whenTheServicesDpopTokenComesToAdminWithAProofForThePublishedUrlThenItIsAdmitted()
      throws Exception {
    ECKey key = new ECKeyGenerator(Curve.P_256).generate();
    String token = dpopAdminToken(key);
    String proof = proof(key, "GET", ACCOUNTS, token);

    HttpResponse<String> admitted = accounts("Authorization: DPoP " + token, proof);
    HttpResponse<String> replayed = accounts("Authorization: DPoP " + token, proof);
    HttpResponse<String> asBearer = accounts("Authorization: Bearer " + token, null);
    HttpResponse<String> otherHost =
        accounts(
            "Authorization: DPoP " + token,
            proof(
                key,
                "GET",
                URI.create(ACCOUNTS.toString().replace("127.0.0.1", "localhost")),
                token));
    HttpResponse<String> noProof = accounts("Authorization: DPoP " + token, null);

    assertEquals(200, admitted.statusCode(), admitted.body());
    for (HttpResponse<String> refused : List.of(replayed, otherHost, noProof)) {
      assertEquals(401, refused.statusCode(), refused.body());
      String challenge = refused.headers().firstValue("WWW-Authenticate").orElse("");
      assertTrue(challenge.startsWith("DPoP error=\"invalid_dpop_proof\""), challenge);
    }
    assertEquals(401, asBearer.statusCode(), asBearer.body());
    assertEquals(
        "Bearer error=\"invalid_token\", DPoP algs=\"ES256 RS256 PS256\"",
        asBearer.headers().firstValue("WWW-Authenticate").orElse(""));
  }

  @Test
  void whenSpringsResourceServerGetsTheServicesDpopTokenThenItNeedsTheProof() throws Exception {
    ECKey key = new ECKeyGenerator(Curve.P_256).generate();
    String token = dpopAdminToken(key);
    NimbusJwtDecoder decoder =
        NimbusJwtDecoder.withJwkSetUri(Deployments.ISSUER + "/api/public-keys").build();
    decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(Deployments.ISSUER));
    // An embedded Tomcat sets catalina.base and catalina.home for the whole JVM, where the ITs'
    // Arquillian Tomcat reads its settings: put back when it stops (BoundTokenSpringIT).
    java.util.Properties before = (java.util.Properties) System.getProperties().clone();
    EmbeddedTomcat spring =
        EmbeddedTomcat.start(tomcatBase, context -> SpringResourceServer.wire(context, decoder));
    try {
      URI orders = URI.create("http://127.0.0.1/orders");
      EmbeddedTomcat.Answer accepted =
          spring.get(
              "/orders",
              "Authorization: DPoP " + token,
              "DPoP: " + proof(key, "GET", orders, token));
      EmbeddedTomcat.Answer without = spring.get("/orders", "Authorization: DPoP " + token);
      EmbeddedTomcat.Answer asBearer = spring.get("/orders", "Authorization: Bearer " + token);

      assertEquals(200, accepted.status(), accepted.headers() + " " + accepted.body());
      assertEquals(401, without.status(), without.headers().toString());
      assertEquals(401, asBearer.status(), asBearer.headers().toString());
    } finally {
      spring.close();
      BoundTokenSpringIT.restore(before);
    }
  }
}
