package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import dev.platform.identity.account.AccountProfile;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** POST /oauth/token over real HTTP: SPEC 2.2, 2.5, 4.1, 7.1 and RFC 6749. */
@ExtendWith(ArquillianExtension.class)
class TokenIT {
  static final String DATABASE = "it-token-" + UUID.randomUUID();
  static final String FORM = "application/x-www-form-urlencoded";
  static final ObjectMapper JSON = new ObjectMapper();

  /** RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E. */
  static final String DESCRIPTION_CHARSET = "[\\x20-\\x21\\x23-\\x5B\\x5D-\\x7E]*";

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(DATABASE, Map.of());
  }

  @ArquillianResource URL base;

  final SecondNode node = new SecondNode(DATABASE);

  @AfterEach
  void close() {
    node.close();
  }

  static AccountProfile catalogReader() {
    return new AccountProfile(
        "catalog reader",
        "org-a",
        List.of("org-b"),
        List.of("catalog:products.view", "catalog:categories.view"),
        "catalog");
  }

  static AccountProfile kitchen() {
    return new AccountProfile("kitchen", "org-k", List.of(), List.of("kitchen:*"), "kitchen");
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  static String form(String... pairs) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      parts.add(encode(pairs[i]) + "=" + encode(pairs[i + 1]));
    }
    return String.join("&", parts);
  }

  /** RFC 6749 §2.3.1 and Appendix B: form-encode each part, then base64. */
  static String basic(String id, String secret) {
    String pair = encode(id) + ":" + encode(secret);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  HttpResponse<String> post(String contentType, String body, String authorization, String path) {
    List<String> headers = new ArrayList<>();
    if (contentType != null) {
      headers.add("Content-Type: " + contentType);
    }
    if (authorization != null) {
      headers.add("Authorization: " + authorization);
    }
    return new Http(base).send("POST", path, body, headers.toArray(String[]::new));
  }

  HttpResponse<String> post(String body) {
    return post(FORM, body, null, "/oauth/token");
  }

  HttpResponse<String> token(SecondNode.Client client, String... more) {
    List<String> pairs =
        new ArrayList<>(
            List.of(
                "grant_type",
                "client_credentials",
                "client_id",
                client.id().toString(),
                "client_secret",
                client.secret()));
    pairs.addAll(List.of(more));
    return post(form(pairs.toArray(String[]::new)));
  }

  static JsonNode assertError(HttpResponse<String> response, int status, String error) {
    assertEquals(status, response.statusCode(), response.body());
    assertNoStore(response);
    JsonNode body = Http.json(response);
    assertEquals(error, body.get("error").asText(), response.body());
    String description = body.get("error_description").asText();
    assertFalse(description.isBlank());
    assertTrue(description.matches(DESCRIPTION_CHARSET), description);
    if (status == 400) {
      assertTrue(response.headers().firstValue("WWW-Authenticate").isEmpty());
    }
    return body;
  }

  static void assertNoStore(HttpResponse<String> response) {
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(null));
    assertEquals("no-cache", response.headers().firstValue("Pragma").orElse(null));
  }

  static String scope(HttpResponse<String> response) {
    assertEquals(200, response.statusCode(), response.body());
    return Http.json(response).get("scope").asText();
  }

  static JsonNode payload(String jwt) throws Exception {
    return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
  }

  @Test
  void whenCredentialsArePostedThenTheResponseHasEveryField() {
    SecondNode.Client client = node.create(catalogReader());
    long before = Instant.now().getEpochSecond();

    HttpResponse<String> response = token(client);

    assertEquals(200, response.statusCode(), response.body());
    assertTrue(
        response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
    assertNoStore(response);
    JsonNode body = Http.json(response);
    assertEquals("Bearer", body.get("token_type").asText());
    assertTrue(body.get("expires_in").isIntegralNumber());
    assertEquals(86400, body.get("expires_in").asLong());
    assertTrue(body.get("expires_at").isIntegralNumber());
    long expiresAt = body.get("expires_at").asLong();
    assertTrue(expiresAt >= before + 86400 && expiresAt <= Instant.now().getEpochSecond() + 86400);
    assertEquals("catalog:products.view catalog:categories.view", body.get("scope").asText());
    assertEquals(3, body.get("access_token").asText().split("\\.").length);
  }

  @Test
  void whenBasicCarriesASecretThatNeedsFormEncodingThenAToken() {
    HttpResponse<String> response =
        post(
            FORM,
            form("grant_type", "client_credentials"),
            basic(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET),
            "/oauth/token");

    assertEquals("identity:admin", scope(response));
    assertNoStore(response);
  }

  @Test
  void whenTheSameSecretIsPostedInTheBodyThenAToken() {
    HttpResponse<String> response =
        post(
            form(
                "grant_type", "client_credentials",
                "client_id", Deployments.ADMIN_ID,
                "client_secret", Deployments.ADMIN_SECRET));

    assertEquals("identity:admin", scope(response));
  }

  @Test
  void whenContentTypeHasACharsetThenAccepted() {
    SecondNode.Client client = node.create(catalogReader());
    String body =
        form(
            "grant_type", "client_credentials",
            "client_id", client.id().toString(),
            "client_secret", client.secret());

    HttpResponse<String> response =
        post("Application/X-WWW-Form-Urlencoded; charset=UTF-8", body, null, "/oauth/token");

    assertEquals(200, response.statusCode(), response.body());
  }

  @Test
  void whenScopeIsOmittedOrASubsetOrWildcardThenThatIsGranted() {
    SecondNode.Client reader = node.create(catalogReader());
    SecondNode.Client kitchen = node.create(kitchen());

    assertEquals("catalog:products.view", scope(token(reader, "scope", "catalog:products.view")));
    assertEquals(
        "catalog:categories.view catalog:products.view",
        scope(token(reader, "scope", "catalog:categories.view  catalog:products.view")));
    assertEquals("kitchen:*", scope(token(kitchen)));
    assertEquals("kitchen:*", scope(token(kitchen, "scope", "kitchen:*")));
    assertEquals(
        "kitchen:orders.create kitchen:menus.read",
        scope(token(kitchen, "scope", "kitchen:orders.create kitchen:menus.read")));
  }

  @Test
  void whenAScopeIsNotAssignedMisspelledOrUnknownThenInvalidScopeNamingIt() {
    SecondNode.Client reader = node.create(catalogReader());
    SecondNode.Client kitchen = node.create(kitchen());

    for (String[] bad :
        new String[][] {
          {"marketing:content.view", "marketing:content.view"},
          {"catalog:product.view", "catalog:product.view"},
          {"catalog:products.view nope:x.y", "nope:x.y"},
          {"catalog:*", "catalog:*"},
        }) {
      JsonNode body = assertError(token(reader, "scope", bad[0]), 400, "invalid_scope");
      assertTrue(body.get("error_description").asText().contains(bad[1]), body.toString());
    }
    JsonNode body =
        assertError(token(kitchen, "scope", "kitchen:secret.sauce"), 400, "invalid_scope");
    assertTrue(body.get("error_description").asText().contains("kitchen:secret.sauce"));
  }

  @Test
  void whenParametersAreMissingThenInvalidRequestNamingEveryOne() {
    String all = assertError(post(""), 400, "invalid_request").get("error_description").asText();
    assertTrue(
        all.contains("grant_type") && all.contains("client_id") && all.contains("client_secret"),
        all);

    String secret =
        assertError(
                post(form("grant_type", "client_credentials", "client_id", Deployments.ADMIN_ID)),
                400,
                "invalid_request")
            .get("error_description")
            .asText();
    assertTrue(secret.contains("client_secret") && !secret.contains("client_id"), secret);

    String empty =
        assertError(
                post(
                    form(
                        "grant_type", "", "client_id", Deployments.ADMIN_ID, "client_secret", "x")),
                400,
                "invalid_request")
            .get("error_description")
            .asText();
    assertTrue(empty.contains("grant_type"), empty);
  }

  @Test
  void whenTheContentTypeIsNotAFormThenInvalidRequest() {
    String body =
        form(
            "grant_type", "client_credentials",
            "client_id", Deployments.ADMIN_ID,
            "client_secret", Deployments.ADMIN_SECRET);

    assertError(post("application/json", body, null, "/oauth/token"), 400, "invalid_request");
    assertError(post(null, body, null, "/oauth/token"), 400, "invalid_request");
  }

  @Test
  void whenTheRequestIsAmbiguousThenInvalidRequest() {
    String credentials =
        "client_id=" + Deployments.ADMIN_ID + "&client_secret=" + encode(Deployments.ADMIN_SECRET);

    assertError(
        post("grant_type=client_credentials&grant_type=client_credentials&" + credentials),
        400,
        "invalid_request");
    assertError(
        post(
            FORM,
            "grant_type=client_credentials&" + credentials,
            basic(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET),
            "/oauth/token"),
        400,
        "invalid_request");
    assertError(
        post(FORM, "grant_type=client_credentials", null, "/oauth/token?" + credentials),
        400,
        "invalid_request");
    assertError(
        post(FORM, "grant_type=client_credentials", "Basic !!not-base64!!", "/oauth/token"),
        400,
        "invalid_request");
    assertError(
        post(
            FORM,
            "grant_type=client_credentials",
            "Basic "
                + Base64.getEncoder().encodeToString("no-colon".getBytes(StandardCharsets.UTF_8)),
            "/oauth/token"),
        400,
        "invalid_request");
  }

  @Test
  void whenTheGrantIsAnotherOrMisspelledThenUnsupportedGrantType() {
    for (String grant :
        List.of("password", "client_credential", "Client_Credentials", "refresh_token")) {
      assertError(
          post(
              form(
                  "grant_type", grant,
                  "client_id", Deployments.ADMIN_ID,
                  "client_secret", Deployments.ADMIN_SECRET)),
          400,
          "unsupported_grant_type");
    }
  }

  @Test
  void whenTheClientIsUnknownOrTheSecretWrongThenInvalidClient() {
    SecondNode.Client reader = node.create(catalogReader());

    for (SecondNode.Client wrong :
        List.of(
            new SecondNode.Client(UUID.randomUUID(), reader.secret()),
            new SecondNode.Client(reader.id(), reader.secret() + "x"))) {
      JsonNode body = assertError(token(wrong), 401, "invalid_client");
      assertFalse(body.get("error_description").asText().contains("revoked"));
    }
    HttpResponse<String> notUuid =
        post(form("grant_type", "client_credentials", "client_id", "admin", "client_secret", "x"));
    assertError(notUuid, 401, "invalid_client");
  }

  @Test
  void whenBasicAuthenticationFailsThen401WithAChallenge() {
    HttpResponse<String> response =
        post(
            FORM,
            form("grant_type", "client_credentials"),
            basic(Deployments.ADMIN_ID, "wrong"),
            "/oauth/token");

    assertError(response, 401, "invalid_client");
    assertTrue(
        response.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Basic realm="));
  }

  @Test
  void whenDeactivatedThenRevokedOnlyWithTheRightSecretAndBackAfterReactivation() {
    SecondNode.Client client = node.create(catalogReader());
    node.accounts.change(client.id(), account -> account.deactivate(Instant.now()));

    JsonNode revoked = assertError(token(client), 401, "invalid_client");
    assertTrue(revoked.get("error_description").asText().contains("revoked"));
    JsonNode wrongSecret =
        assertError(token(new SecondNode.Client(client.id(), "guess")), 401, "invalid_client");
    assertFalse(wrongSecret.get("error_description").asText().contains("revoked"));

    node.accounts.change(client.id(), account -> account.reactivate(Instant.now()));
    assertEquals(200, token(client).statusCode());
  }

  @Test
  void whenDeletedThenRevoked() {
    SecondNode.Client client = node.create(catalogReader());
    node.accounts.change(client.id(), account -> account.delete(Instant.now()));

    JsonNode body = assertError(token(client), 401, "invalid_client");
    assertTrue(body.get("error_description").asText().contains("revoked"));
  }

  @Test
  void whenTheSecretIsRotatedThenTheOldFailsAndTheNewWorks() {
    SecondNode.Client client = node.create(catalogReader());
    String rotated = node.rotateSecret(client.id());

    JsonNode old = assertError(token(client), 401, "invalid_client");
    assertFalse(old.get("error_description").asText().contains("revoked"));
    assertEquals(200, token(new SecondNode.Client(client.id(), rotated)).statusCode());
  }

  @Test
  void whenTheBodyIsOver16KibThenInvalidRequestWithOrWithoutItsLength() {
    SecondNode.Client client = node.create(catalogReader());
    String huge = form("grant_type", "client_credentials", "padding", "x".repeat(17 * 1024));

    // Asked first (Http.send), so the refusal is not cut by a reset; HugeBodiesChaosIT sends
    // such bodies without asking, on every route.
    HttpResponse<String> declared = post(huge);
    HttpResponse<String> chunked = postChunked(huge);

    for (HttpResponse<String> response : List.of(declared, chunked)) {
      JsonNode body = assertError(response, 400, "invalid_request");
      assertTrue(body.get("error_description").asText().contains("larger than"), response.body());
    }
    String small =
        form(
            "grant_type", "client_credentials",
            "client_id", client.id().toString(),
            "client_secret", client.secret());
    assertEquals(200, postChunked(small).statusCode());
  }

  /** A body sent in chunks, without Content-Length. */
  HttpResponse<String> postChunked(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    HttpRequest request =
        new Http(base)
            .request("/oauth/token")
            .header("Content-Type", FORM)
            .POST(
                HttpRequest.BodyPublishers.ofInputStream(
                    () -> new java.io.ByteArrayInputStream(bytes)))
            .build();
    return new Http(base).send(request);
  }

  @Test
  void whenAnotherMethodThen405WithAnOAuthBody() {
    HttpResponse<String> response = new Http(base).get("/oauth/token");

    assertError(response, 405, "invalid_request");
    assertTrue(response.headers().firstValue("Allow").orElseThrow().contains("POST"));
  }

  @Test
  void whenVerifiedByAnIndependentLibraryThenEveryClaimHasItsValueAndType() throws Exception {
    SecondNode.Client client = node.create(catalogReader());
    long before = Instant.now().getEpochSecond();
    String jwt =
        Http.json(token(client, "scope", "catalog:products.view")).get("access_token").asText();
    String other = Http.json(token(client)).get("access_token").asText();

    JWKSet keys = JWKSet.parse(new Http(base).get("/api/public-keys").body());
    SignedJWT signed = SignedJWT.parse(jwt);
    assertEquals(JWSAlgorithm.RS256, signed.getHeader().getAlgorithm());
    assertEquals("JWT", signed.getHeader().getType().getType());
    RSAKey key = (RSAKey) keys.getKeyByKeyId(signed.getHeader().getKeyID());
    assertNotNull(key, "the token's kid is published");
    assertTrue(signed.verify(new RSASSAVerifier(key)));

    JsonNode claims = payload(jwt);
    assertEquals(Deployments.ISSUER, claims.get("iss").asText());
    assertTrue(claims.get("aud").isTextual());
    assertEquals("*", claims.get("aud").asText());
    assertEquals(client.id().toString(), claims.get("sub").asText());
    assertEquals(client.id().toString(), claims.get("client_id").asText());
    UUID.fromString(claims.get("jti").asText());
    for (String time : List.of("iat", "nbf", "exp")) {
      assertTrue(claims.get(time).isIntegralNumber(), time);
    }
    assertTrue(claims.get("iat").asLong() >= before);
    assertEquals(claims.get("iat").asLong(), claims.get("nbf").asLong());
    assertEquals(claims.get("iat").asLong() + 86400, claims.get("exp").asLong());
    assertEquals("service_account", claims.get("token_type").asText());
    assertEquals("catalog", claims.get("service_name").asText());
    assertEquals(List.of("catalog:products.view"), strings(claims.get("scopes")));
    assertEquals(claims.get("scopes"), claims.get("permissions"));
    assertEquals("catalog:products.view", claims.get("scope").asText());
    assertEquals("org-a", claims.get("organization_id").asText());
    assertEquals(List.of("org-a", "org-b"), strings(claims.get("accessible_orgs")));
    assertTrue(claims.get("version").isInt());
    JsonNode channels = claims.get("channel_permissions");
    assertEquals(List.of("catalog.products.*"), strings(channels.get("subscribe")));
    assertEquals(List.of(), strings(channels.get("publish")));
    assertEquals(List.of("catalog.products.*"), strings(channels.get("replay")));
    assertEquals(channels, claims.get("cs_permissions"));
    assertFalse(claims.has("is_service_account"));
    assertNotEquals(claims.get("jti"), payload(other).get("jti"));
  }

  @Test
  void whenDiscoveryIsFetchedThenItDescribesTheTokenEndpoint() {
    HttpResponse<String> response = new Http(base).get("/.well-known/oauth-authorization-server");

    assertEquals(200, response.statusCode());
    JsonNode metadata = Http.json(response);
    assertEquals(Deployments.ISSUER, metadata.get("issuer").asText());
    assertEquals(Deployments.ISSUER + "/oauth/token", metadata.get("token_endpoint").asText());
    assertEquals(Deployments.ISSUER + "/api/public-keys", metadata.get("jwks_uri").asText());
    assertEquals(List.of("client_credentials"), strings(metadata.get("grant_types_supported")));
    assertEquals(
        List.of(
            "client_secret_basic",
            "client_secret_post",
            "private_key_jwt",
            "tls_client_auth",
            "self_signed_tls_client_auth"),
        strings(metadata.get("token_endpoint_auth_methods_supported")));
    assertEquals(
        metadata.get("token_endpoint_auth_methods_supported"),
        metadata.get("revocation_endpoint_auth_methods_supported"));
    assertEquals(
        metadata.get("token_endpoint_auth_methods_supported"),
        metadata.get("introspection_endpoint_auth_methods_supported"));
    assertTrue(metadata.get("tls_client_certificate_bound_access_tokens").asBoolean());
    assertEquals(
        List.of("ES256", "RS256", "PS256"),
        strings(metadata.get("dpop_signing_alg_values_supported")));
    assertEquals(
        List.of("RS256", "PS256", "ES256"),
        strings(metadata.get("token_endpoint_auth_signing_alg_values_supported")));
    assertTrue(strings(metadata.get("scopes_supported")).contains("catalog:products.view"));
    assertEquals(List.of(), strings(metadata.get("response_types_supported")));
    assertEquals(404, new Http(base).get("/.well-known/jwks.json").statusCode());
  }

  static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return values;
  }
}
