package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.OAuth2Error;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.PrivateKeyJWT;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.AccessTokenType;
import dev.platform.identity.client.TokenClient;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.security.oauth2.client.endpoint.NimbusJwtClientAuthenticationParametersConverter;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;

/**
 * Issue 22 with clients we did not write: the Nimbus OAuth SDK's {@code PrivateKeyJWT} and Spring
 * Security's {@code NimbusJwtClientAuthenticationParametersConverter} get tokens by
 * private_key_jwt. Our own TokenClient and the ITs' signer share our reading of RFC 7523; these two
 * are what integrators use, with their own claims (exp, iat, jti, aud), headers and form, so a rule
 * of ours that is stricter than the RFC shows here before an integrator finds it.
 */
@ExtendWith(ArquillianExtension.class)
class PrivateKeyJwtInteropIT {
  static final URI TOKEN_ENDPOINT = URI.create(Deployments.ISSUER + "/oauth/token");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("interop-" + UUID.randomUUID(), Map.of());
  }

  @ArquillianResource URL base;

  /** A private_key_jwt account registered with {@code key}'s public JWK; its client_id. */
  String register(ClientKeyPair key) {
    String admin =
        TokenClient.builder()
            .baseUrl(URI.create(base.toString()))
            .credentials(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET)
            .scopes(List.of("identity:admin"))
            .build()
            .token();
    HttpResponse<String> created =
        new Http(base)
            .admin(
                "POST",
                "/service-accounts",
                admin,
                "{\"name\":\"interop\",\"organization_id\":\"org-i\",\"scopes\":[\"marketing:*\"],"
                    + "\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks\":"
                    + key.jwks()
                    + "}");
    assertEquals(201, created.statusCode(), created.body());
    return Http.json(created).get("client_id").asText();
  }

  /** The JWK with its private half, as a Spring application loads it from its key store. */
  static JWK privateJwk(ClientKeyPair key) {
    return key.isEc()
        ? new ECKey.Builder(Curve.P_256, (ECPublicKey) key.pair().getPublic())
            .privateKey(key.pair().getPrivate())
            .keyID(key.kid())
            .build()
        : new RSAKey.Builder((RSAPublicKey) key.pair().getPublic())
            .privateKey(key.pair().getPrivate())
            .keyID(key.kid())
            .build();
  }

  static List<ClientKeyPair> keys() {
    return List.of(ClientKeyPair.rsa("interop-rsa"), ClientKeyPair.ec("interop-ec"));
  }

  PrivateKeyJWT nimbusAssertion(String clientId, ClientKeyPair key) throws Exception {
    JWSAlgorithm algorithm = key.isEc() ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256;
    return new PrivateKeyJWT(
        new ClientID(clientId),
        TOKEN_ENDPOINT,
        algorithm,
        key.pair().getPrivate(),
        key.kid(),
        null);
  }

  /** The SDK's own HTTP client sends the request and its parser reads the answer. */
  static TokenResponse send(PrivateKeyJWT assertion) throws Exception {
    TokenRequest request =
        new TokenRequest(TOKEN_ENDPOINT, assertion, new ClientCredentialsGrant());
    return TokenResponse.parse(request.toHTTPRequest().send());
  }

  @Test
  void whenTheNimbusSdkSignsByRs256OrEs256ThenItGetsABearerTokenForTheClient() throws Exception {
    for (ClientKeyPair key : keys()) {
      String id = register(key);
      TokenResponse response = send(nimbusAssertion(id, key));

      assertTrue(
          response.indicatesSuccess(),
          key.kid() + ": " + (response.indicatesSuccess() ? "" : error(response)));
      AccessToken token = response.toSuccessResponse().getTokens().getAccessToken();
      assertEquals(AccessTokenType.BEARER, token.getType());
      assertEquals(id, SignedJWT.parse(token.getValue()).getJWTClaimsSet().getSubject());
    }
  }

  @Test
  void whenTheNimbusSdkSendsOneAssertionTwiceThenTheSecondIsInvalidClient() throws Exception {
    ClientKeyPair key = ClientKeyPair.ec("replayed");
    PrivateKeyJWT assertion = nimbusAssertion(register(key), key);

    assertTrue(send(assertion).indicatesSuccess());
    TokenResponse replayed = send(assertion);

    assertFalse(replayed.indicatesSuccess());
    TokenErrorResponse refusal = replayed.toErrorResponse();
    assertEquals(401, refusal.getErrorObject().getHTTPStatusCode());
    assertEquals(OAuth2Error.INVALID_CLIENT.getCode(), refusal.getErrorObject().getCode());
    assertTrue(
        refusal.getErrorObject().getDescription().contains("jti was already used"),
        error(replayed));
  }

  /** Spring Security 6.4+ client credentials, configured as its reference manual shows. */
  @Test
  void whenSpringSecuritySignsByRs256OrEs256ThenItGetsABearerTokenForTheClient() throws Exception {
    for (ClientKeyPair key : keys()) {
      String id = register(key);
      ClientRegistration registration =
          ClientRegistration.withRegistrationId("identity")
              .clientId(id)
              .clientAuthenticationMethod(ClientAuthenticationMethod.PRIVATE_KEY_JWT)
              .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
              .tokenUri(TOKEN_ENDPOINT.toString())
              .build();
      RestClientClientCredentialsTokenResponseClient client =
          new RestClientClientCredentialsTokenResponseClient();
      client.addParametersConverter(
          new NimbusJwtClientAuthenticationParametersConverter<>(
              forRegistration -> privateJwk(key)));

      OAuth2AccessTokenResponse response =
          client.getTokenResponse(new OAuth2ClientCredentialsGrantRequest(registration));

      OAuth2AccessToken token = response.getAccessToken();
      assertEquals(OAuth2AccessToken.TokenType.BEARER, token.getTokenType(), key.kid());
      assertEquals(id, SignedJWT.parse(token.getTokenValue()).getJWTClaimsSet().getSubject());
    }
  }

  static String error(TokenResponse response) {
    return response.toErrorResponse().getErrorObject().toJSONObject().toString();
  }
}
