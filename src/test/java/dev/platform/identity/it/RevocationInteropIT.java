package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.OAuth2Error;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenIntrospectionRequest;
import com.nimbusds.oauth2.sdk.TokenIntrospectionResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionSuccessResponse;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.token.TypelessAccessToken;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;
import org.springframework.security.oauth2.server.resource.introspection.SpringOpaqueTokenIntrospector;

/**
 * Issue 38 with clients we did not write: Spring Security's {@code SpringOpaqueTokenIntrospector},
 * as a resource server configures it, asks {@code POST /oauth/introspect} (RFC 7662); the Nimbus
 * OAuth SDK's {@code TokenRevocationRequest} (RFC 7009) and {@code TokenIntrospectionRequest} send
 * their own forms and parse the answers with their own parsers. RevocationIT checks our reading of
 * the RFCs; these check that integrators' libraries read the answers the same way.
 */
@ExtendWith(ArquillianExtension.class)
class RevocationInteropIT {
  static final URI REVOKE = URI.create(Deployments.ISSUER + "/oauth/revoke");
  static final URI INTROSPECT = URI.create(Deployments.ISSUER + "/oauth/introspect");
  static final Set<String> READER_SCOPES =
      Set.of("catalog:products.view", "catalog:categories.view");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("revocation-interop-" + UUID.randomUUID(), Map.of());
  }

  @ArquillianResource URL base;

  record Client(String id, String secret) {
    ClientAuthentication basic() {
      return new ClientSecretBasic(new ClientID(id), new Secret(secret));
    }

    ClientAuthentication post() {
      return new ClientSecretPost(new ClientID(id), new Secret(secret));
    }
  }

  Client create(String scopes) {
    Http http = new Http(base);
    HttpResponse<String> created =
        http.admin(
            "POST",
            "/service-accounts",
            http.adminToken(),
            "{\"name\":\"interop\",\"organization_id\":\"org-i\",\"scopes\":[" + scopes + "]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new Client(body.get("client_id").asText(), body.get("client_secret").asText());
  }

  Client reader() {
    return create("\"catalog:products.view\",\"catalog:categories.view\"");
  }

  Client introspector() {
    return create("\"identity:introspect\"");
  }

  String token(Client client) {
    return new Http(base).token(client.id(), client.secret());
  }

  /** Configured as Spring Security's reference manual shows for opaque tokens. */
  static OpaqueTokenIntrospector spring(Client introspector) {
    return SpringOpaqueTokenIntrospector.withIntrospectionUri(INTROSPECT.toString())
        .clientId(introspector.id())
        .clientSecret(introspector.secret())
        .build();
  }

  /** The SDK's own HTTP client sends the request and its parser reads the answer. */
  static TokenIntrospectionResponse introspect(Client introspector, String token) throws Exception {
    return TokenIntrospectionResponse.parse(introspection(introspector, token).send());
  }

  static HTTPRequest introspection(Client introspector, String token) {
    return new TokenIntrospectionRequest(
            INTROSPECT, introspector.basic(), new TypelessAccessToken(token))
        .toHTTPRequest();
  }

  /**
   * The same request through the JDK's client: the SDK's {@code HTTPResponse.getBody()} is the body
   * read line by line, each line followed by the platform's line separator, so not the bytes sent.
   */
  HttpResponse<String> exactBody(Client introspector, String token) throws Exception {
    HTTPRequest request = introspection(introspector, token);
    Http http = new Http(base);
    return http.send(
        http.request("/oauth/introspect")
            .header("Authorization", request.getAuthorization())
            .header("Content-Type", request.getEntityContentType().toString())
            .POST(HttpRequest.BodyPublishers.ofString(request.getBody()))
            .build());
  }

  static HTTPResponse revoke(ClientAuthentication owner, String token) throws Exception {
    return new TokenRevocationRequest(REVOKE, owner, new BearerAccessToken(token))
        .toHTTPRequest()
        .send();
  }

  static TokenIntrospectionSuccessResponse success(TokenIntrospectionResponse response) {
    assertTrue(
        response.indicatesSuccess(),
        () -> response.toErrorResponse().getErrorObject().toJSONObject().toString());
    return response.toSuccessResponse();
  }

  @Test
  void whenSpringIntrospectsAnActiveTokenThenThePrincipalCarriesItsClaimsAndScopes()
      throws Exception {
    Client reader = reader();
    String token = token(reader);
    Instant exp = SignedJWT.parse(token).getJWTClaimsSet().getExpirationTime().toInstant();

    OAuth2AuthenticatedPrincipal principal = spring(introspector()).introspect(token);

    assertEquals(reader.id(), principal.getName());
    assertEquals(reader.id(), principal.getAttribute("sub"));
    assertEquals(reader.id(), principal.getAttribute("client_id"));
    assertEquals(exp, principal.getAttribute("exp"));
    assertEquals(
        READER_SCOPES.stream().map(scope -> "SCOPE_" + scope).collect(Collectors.toSet()),
        principal.getAuthorities().stream()
            .map(GrantedAuthority::getAuthority)
            .collect(Collectors.toSet()));
  }

  @Test
  void whenSpringIntrospectsARevokedOrGarbageTokenThenItThrowsBadOpaqueToken() throws Exception {
    Client reader = reader();
    String token = token(reader);
    OpaqueTokenIntrospector spring = spring(introspector());
    assertEquals(reader.id(), spring.introspect(token).getName());

    assertEquals(200, revoke(reader.basic(), token).getStatusCode());

    assertThrows(BadOpaqueTokenException.class, () -> spring.introspect(token));
    assertThrows(BadOpaqueTokenException.class, () -> spring.introspect("garbage"));
  }

  @Test
  void whenTheNimbusSdkIntrospectsAnActiveTokenThenItReadsItsScopeClientAndSubject()
      throws Exception {
    Client reader = reader();
    String token = token(reader);

    TokenIntrospectionSuccessResponse active = success(introspect(introspector(), token));

    assertTrue(active.isActive());
    assertEquals(new Scope(READER_SCOPES.toArray(String[]::new)), active.getScope());
    assertEquals(new ClientID(reader.id()), active.getClientID());
    assertEquals(reader.id(), active.getSubject().getValue());
    assertEquals(SignedJWT.parse(token).getJWTClaimsSet().getJWTID(), active.getJWTID().getValue());
  }

  @Test
  void whenTheNimbusSdkRevokesByBasicOrPostThenTheTokenIsInactive() throws Exception {
    Client reader = reader();
    Client introspector = introspector();
    for (ClientAuthentication owner : new ClientAuthentication[] {reader.basic(), reader.post()}) {
      String token = token(reader);
      assertTrue(success(introspect(introspector, token)).isActive());

      HTTPResponse revoked = revoke(owner, token);

      assertEquals(200, revoked.getStatusCode(), owner.getMethod() + ": " + revoked.getBody());
      assertFalse(success(introspect(introspector, token)).isActive());
      assertEquals("{\"active\":false}", exactBody(introspector, token).body());
    }
  }

  /** Attack: B names A's token; RFC 7009 §2.1 has the server refuse, and the token stays active. */
  @Test
  void whenTheNimbusSdkRevokesAnotherClientsTokenThenItIsUnauthorizedClient() throws Exception {
    Client owner = reader();
    Client stranger = reader();
    String token = token(owner);

    HTTPResponse refused = revoke(stranger.basic(), token);

    assertEquals(400, refused.getStatusCode(), refused.getBody());
    ErrorObject error = ErrorObject.parse(refused);
    assertEquals(OAuth2Error.UNAUTHORIZED_CLIENT.getCode(), error.getCode(), refused.getBody());
    assertEquals(400, error.getHTTPStatusCode());
    assertTrue(success(introspect(introspector(), token)).isActive());
  }
}
