package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionRequest;
import com.nimbusds.oauth2.sdk.TokenIntrospectionResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionSuccessResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import com.nimbusds.openid.connect.sdk.Nonce;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 40 over real HTTP, with a client we did not write: the Nimbus OAuth SDK's {@code
 * DefaultDPoPProofFactory} and its HTTP client get DPoP tokens from a service whose DPoP proofs
 * must carry a server nonce ({@code identity/dpopNonces}): the first proof, without one, gets
 * {@code use_dpop_nonce} and the nonce in {@code DPoP-Nonce}; the retry with it gets a token bound
 * to the key. A proof sent twice is refused; a client without DPoP is untouched.
 */
@ExtendWith(ArquillianExtension.class)
class DpopIT {
  static final URI TOKEN_ENDPOINT = URI.create(Deployments.ISSUER + "/oauth/token");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("dpop-" + UUID.randomUUID(), Map.of("identity/dpopNonces", "true"));
  }

  @ArquillianResource URL base;

  /** A new secret account: its client_id and secret. */
  String[] register() {
    return register("marketing:*");
  }

  /** A new secret account with {@code scope}: its client_id and secret. */
  String[] register(String scope) {
    HttpResponse<String> created =
        new Http(base)
            .admin(
                "POST",
                "/service-accounts",
                new Http(base).adminToken(),
                "{\"name\":\"dpop\",\"organization_id\":\"org-d\",\"scopes\":[\"" + scope + "\"]}");
    assertEquals(201, created.statusCode(), created.body());
    return new String[] {
      Http.json(created).get("client_id").asText(), Http.json(created).get("client_secret").asText()
    };
  }

  static HTTPResponse send(String[] client, String proof) throws Exception {
    HTTPRequest request =
        new TokenRequest(
                TOKEN_ENDPOINT,
                new ClientSecretBasic(new ClientID(client[0]), new Secret(client[1])),
                new ClientCredentialsGrant())
            .toHTTPRequest();
    if (proof != null) {
      request.setDPoP(SignedJWT.parse(proof));
    }
    return request.send();
  }

  static String proof(JWK key, Nonce nonce) throws Exception {
    JWSAlgorithm alg = key instanceof RSAKey ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256;
    return new DefaultDPoPProofFactory(key, alg)
        .createDPoPJWT("POST", TOKEN_ENDPOINT, nonce)
        .serialize();
  }

  @Test
  void whenNimbusSendsAProofThenItIsToldTheNonceAndWithItGetsADpopToken() throws Exception {
    String[] client = register();
    for (JWK key :
        List.of(new ECKeyGenerator(Curve.P_256).generate(), new RSAKeyGenerator(2048).generate())) {
      HTTPResponse first = send(client, proof(key, null));
      TokenErrorResponse refusal = TokenResponse.parse(first).toErrorResponse();
      assertEquals(400, first.getStatusCode(), first.getBody());
      assertEquals("use_dpop_nonce", refusal.getErrorObject().getCode());
      Nonce nonce = first.getDPoPNonce();
      assertNotNull(nonce, "the refusal gives the nonce");

      HTTPResponse second = send(client, proof(key, nonce));
      TokenResponse answer = TokenResponse.parse(second);
      assertTrue(answer.indicatesSuccess(), second.getBody());
      AccessToken token = answer.toSuccessResponse().getTokens().getAccessToken();
      assertEquals(AccessTokenType.DPOP, token.getType());
      assertEquals(
          key.computeThumbprint().toString(),
          SignedJWT.parse(token.getValue()).getJWTClaimsSet().getJSONObjectClaim("cnf").get("jkt"));
      assertNotNull(second.getDPoPNonce(), "every answer to a proof gives the nonce");
    }
  }

  @Test
  void whenNimbusSendsOneProofTwiceThenTheSecondIsInvalidDpopProof() throws Exception {
    String[] client = register();
    ECKey key = new ECKeyGenerator(Curve.P_256).generate();
    Nonce nonce = send(client, proof(key, null)).getDPoPNonce();
    String proof = proof(key, nonce);
    assertTrue(TokenResponse.parse(send(client, proof)).indicatesSuccess());

    HTTPResponse again = send(client, proof);

    assertEquals(400, again.getStatusCode());
    assertEquals(
        "invalid_dpop_proof",
        TokenResponse.parse(again).toErrorResponse().getErrorObject().getCode());
  }

  @Test
  void whenAClientSendsNoProofThenItGetsABearerTokenAndNoNonce() throws Exception {
    HTTPResponse answer = send(register(), null);

    assertEquals(200, answer.getStatusCode(), answer.getBody());
    assertEquals(
        AccessTokenType.BEARER,
        TokenResponse.parse(answer).toSuccessResponse().getTokens().getAccessToken().getType());
    assertNull(answer.getDPoPNonce());
  }

  @Test
  void whenAProofIsMalformedThenTheAnswerIsSpec71sShapeNotA500() throws Exception {
    HttpResponse<String> answer =
        new Http(base)
            .send(
                "POST",
                "/oauth/token",
                "grant_type=client_credentials",
                "Content-Type: application/x-www-form-urlencoded",
                "Authorization: Basic " + basic(register()),
                "DPoP: eyJhbGciOiJub25lIn0.e30.");

    assertEquals(400, answer.statusCode(), answer.body());
    assertEquals("invalid_dpop_proof", Http.json(answer).get("error").asText());
    assertFalse(Http.json(answer).get("error_description").asText().isEmpty());
  }

  /**
   * RFC 9449 §6.2 with the Nimbus SDK's introspection and revocation requests: a DPoP token
   * introspects as active, of type DPoP, with its key's thumbprint; its client revokes it, and it
   * introspects as inactive.
   */
  @Test
  void whenADpopTokenIsIntrospectedThenItIsDpopWithItsKeyAndItsClientCanRevokeIt()
      throws Exception {
    String[] client = register();
    ECKey key = new ECKeyGenerator(Curve.P_256).generate();
    Nonce nonce = send(client, proof(key, null)).getDPoPNonce();
    AccessToken token =
        TokenResponse.parse(send(client, proof(key, nonce)))
            .toSuccessResponse()
            .getTokens()
            .getAccessToken();
    String[] introspector = register("identity:introspect");

    TokenIntrospectionSuccessResponse active = introspect(introspector, token);
    assertTrue(active.isActive());
    assertEquals(AccessTokenType.DPOP, active.getTokenType());
    assertEquals(key.computeThumbprint(), active.getJWKThumbprintConfirmation().getValue());

    HTTPResponse revoked =
        new TokenRevocationRequest(
                URI.create(Deployments.ISSUER + "/oauth/revoke"), auth(client), token)
            .toHTTPRequest()
            .send();
    assertEquals(200, revoked.getStatusCode(), revoked.getBody());
    assertFalse(introspect(introspector, token).isActive());
  }

  static TokenIntrospectionSuccessResponse introspect(String[] introspector, AccessToken token)
      throws Exception {
    HTTPResponse answer =
        new TokenIntrospectionRequest(
                URI.create(Deployments.ISSUER + "/oauth/introspect"), auth(introspector), token)
            .toHTTPRequest()
            .send();
    return TokenIntrospectionResponse.parse(answer).toSuccessResponse();
  }

  static ClientSecretBasic auth(String[] client) {
    return new ClientSecretBasic(new ClientID(client[0]), new Secret(client[1]));
  }

  static String basic(String[] client) {
    return java.util.Base64.getEncoder()
        .encodeToString(
            (client[0] + ":" + client[1]).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
