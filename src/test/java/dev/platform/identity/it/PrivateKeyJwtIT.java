package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.client.TokenClient;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
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
 * Issue 22 over HTTP: a private_key_jwt account registered through the administration API, its
 * tokens, its keys replaced, and what the API and the token endpoint refuse.
 */
@ExtendWith(ArquillianExtension.class)
class PrivateKeyJwtIT {
  static final String TOKEN_ENDPOINT = Deployments.ISSUER + "/oauth/token";

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("pkjwt-" + UUID.randomUUID(), Map.of());
  }

  @ArquillianResource URL base;

  Http http() {
    return new Http(base);
  }

  HttpResponse<String> token(String form, String authorization) {
    HttpRequest.Builder request =
        http()
            .request("/oauth/token")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http().send(request.build());
  }

  static String basic(String id, String secret) {
    String pair = id + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  String admin() {
    HttpResponse<String> answer =
        token(
            "grant_type=client_credentials", basic(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET));
    assertEquals(200, answer.statusCode(), answer.body());
    return Http.json(answer).get("access_token").asText();
  }

  HttpResponse<String> create(String admin, String extra) {
    return http()
        .admin(
            "POST",
            "/service-accounts",
            admin,
            "{\"name\":\"signer\",\"organization_id\":\"org-k\",\"scopes\":[\"marketing:*\"]"
                + extra
                + "}");
  }

  String keyAccount(String admin, ClientKeyPair key) {
    HttpResponse<String> created =
        create(admin, ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks\":" + key.jwks());
    assertEquals(201, created.statusCode(), created.body());
    return Http.json(created).get("client_id").asText();
  }

  HttpResponse<String> tokenWith(String assertion) {
    return token(ClientKeyPair.form(assertion), null);
  }

  @Test
  void whenTheIssuerIsDiscoveredThenPrivateKeyJwtAndItsAlgorithmsAreListed() {
    JsonNode metadata = Http.json(http().get("/.well-known/oauth-authorization-server"));
    assertTrue(
        metadata
            .get("token_endpoint_auth_methods_supported")
            .toString()
            .contains("private_key_jwt"));
    assertEquals(
        "[\"RS256\",\"PS256\",\"ES256\"]",
        metadata.get("token_endpoint_auth_signing_alg_values_supported").toString());
  }

  @Test
  void whenAKeyAccountIsCreatedThenItHasNoSecretAndItsAssertionGetsOneToken() {
    String admin = admin();
    ClientKeyPair key = ClientKeyPair.ec("k1");
    HttpResponse<String> created =
        create(admin, ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks\":" + key.jwks());
    assertEquals(201, created.statusCode(), created.body());
    JsonNode account = Http.json(created);
    assertFalse(account.has("client_secret"), created.body());
    assertEquals("private_key_jwt", account.get("token_endpoint_auth_method").asText());
    assertEquals("k1", account.get("jwks").get("keys").get(0).get("kid").asText());
    String id = account.get("client_id").asText();
    JsonNode shown = Http.json(http().admin("GET", "/service-accounts/" + id, admin, null));
    assertFalse(shown.has("secret_created_at"), shown.toString());
    assertEquals("private_key_jwt", shown.get("token_endpoint_auth_method").asText());

    String assertion = key.assertion(id, TOKEN_ENDPOINT);
    HttpResponse<String> issued = tokenWith(assertion);
    assertEquals(200, issued.statusCode(), issued.body());
    assertEquals("Bearer", Http.json(issued).get("token_type").asText());
    HttpResponse<String> replayed = tokenWith(assertion);
    assertEquals(401, replayed.statusCode(), replayed.body());
    assertEquals("invalid_client", Http.json(replayed).get("error").asText());
    assertTrue(replayed.body().contains("jti was already used"), replayed.body());
    // With the client_id named too, as RFC 7521 §4.2 allows.
    HttpResponse<String> named =
        token(
            "client_id=" + id + "&" + ClientKeyPair.form(key.assertion(id, TOKEN_ENDPOINT)), null);
    assertEquals(200, named.statusCode(), named.body());
  }

  @Test
  void whenTheKeysAreReplacedThenTheOldKeyFailsAndTheNewOneWorks() {
    String admin = admin();
    ClientKeyPair old = ClientKeyPair.ec("old");
    String id = keyAccount(admin, old);
    ClientKeyPair fresh = ClientKeyPair.rsa("new");
    HttpResponse<String> replaced =
        http()
            .admin(
                "PUT",
                "/service-accounts/" + id + "/jwks",
                admin,
                "{\"jwks\":" + fresh.jwks() + "}");
    assertEquals(200, replaced.statusCode(), replaced.body());
    assertEquals("new", Http.json(replaced).get("jwks").get("keys").get(0).get("kid").asText());
    assertEquals(401, tokenWith(old.assertion(id, TOKEN_ENDPOINT)).statusCode());
    assertEquals(200, tokenWith(fresh.assertion(id, TOKEN_ENDPOINT)).statusCode());

    HttpResponse<String> rotate =
        http().admin("POST", "/service-accounts/" + id + "/secret", admin, null);
    assertEquals(409, rotate.statusCode(), rotate.body());
    assertTrue(rotate.body().contains("has no secret"), rotate.body());

    HttpResponse<String> secretAccount = create(admin, "");
    String secretId = Http.json(secretAccount).get("client_id").asText();
    HttpResponse<String> noKeys =
        http()
            .admin(
                "PUT",
                "/service-accounts/" + secretId + "/jwks",
                admin,
                "{\"jwks\":" + fresh.jwks() + "}");
    assertEquals(409, noKeys.statusCode(), noKeys.body());
    HttpResponse<String> secretWithAssertion = tokenWith(fresh.assertion(secretId, TOKEN_ENDPOINT));
    assertEquals(401, secretWithAssertion.statusCode());
  }

  @Test
  void whenTheRegistrationIsWrongThenTheApiSaysWhatIsWrong() {
    String admin = admin();
    ClientKeyPair key = ClientKeyPair.ec("k");
    String privateJwk =
        new com.nimbusds.jose.jwk.ECKey.Builder(
                com.nimbusds.jose.jwk.Curve.P_256,
                (java.security.interfaces.ECPublicKey) key.pair().getPublic())
            .privateKey(key.pair().getPrivate())
            .build()
            .toJSONString();
    Map<String, String> refusals =
        Map.of(
            ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks\":{\"keys\":["
                + privateJwk
                + "]}",
            "private member 'd'",
            ",\"token_endpoint_auth_method\":\"private_key_jwt\"",
            "needs jwks or jwks_uri",
            ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks_uri\":\"http://keys.example/j\"",
            "must be an https URL",
            ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks_uri\":\"https://127.0.0.1/j\"",
            "only to public addresses",
            ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks\":"
                + key.jwks()
                + ",\"jwks_uri\":\"https://keys.example/j\"",
            "not both",
            ",\"jwks\":" + key.jwks(),
            "only for token_endpoint_auth_method private_key_jwt or self_signed_tls_client_auth",
            ",\"token_endpoint_auth_method\":\"client_secret_jwt\"",
            "must be client_secret_basic, client_secret_post, private_key_jwt, tls_client_auth or"
                + " self_signed_tls_client_auth");
    refusals.forEach(
        (extra, reason) -> {
          HttpResponse<String> refused = create(admin, extra);
          assertEquals(400, refused.statusCode(), extra + " -> " + refused.body());
          assertTrue(refused.body().contains(reason), extra + " -> " + refused.body());
        });
  }

  /**
   * Issue 36 item 10, the attacker's spellings: a jwks_uri may not name another service of a public
   * host. The port is checked before the host is looked up; an explicit :443 passes it (and this
   * sandbox's keys.example then fails the look-up, as any unknown host does).
   */
  @Test
  void whenAJwksUriNamesAPortBesides443ThenTheAccountIsRefused() {
    String admin = admin();
    String port443 = "jwks_uri must use port 443 (identity/jwksUriPorts allows others)";
    Map<String, String> refusals =
        Map.of(
            "https://keys.example:22/j", port443,
            "https://keys.example:0/j", port443,
            "https://keys.example:65536/j", port443,
            "https://[2606:4700:4700::1111]:22/j", port443,
            "https://a@keys.example:22/j", "no user info",
            "https://keys.example:443/j", "only to public addresses");
    refusals.forEach(
        (uri, reason) -> {
          HttpResponse<String> refused =
              create(
                  admin,
                  ",\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks_uri\":\""
                      + uri
                      + "\"");
          assertEquals(400, refused.statusCode(), uri + " -> " + refused.body());
          assertTrue(refused.body().contains(reason), uri + " -> " + refused.body());
        });
  }

  @Test
  void whenCredentialsAreMixedOrRepeatedThenTheTokenEndpointRefusesTheRequest() {
    String admin = admin();
    ClientKeyPair key = ClientKeyPair.ec("k");
    String id = keyAccount(admin, key);
    String assertion = key.assertion(id, TOKEN_ENDPOINT);
    List<HttpResponse<String>> refused =
        List.of(
            token(ClientKeyPair.form(assertion), basic(id, "x")),
            token(ClientKeyPair.form(assertion) + "&client_assertion=" + assertion, null),
            token(
                ClientKeyPair.form(assertion)
                    + "&client_assertion_type="
                    + ClientKeyPair.ASSERTION_TYPE,
                null),
            token(ClientKeyPair.form(assertion) + "&client_secret=x", null));
    for (HttpResponse<String> answer : refused) {
      assertEquals(400, answer.statusCode(), answer.body());
      assertEquals("invalid_request", Http.json(answer).get("error").asText());
    }
    HttpResponse<String> inQuery =
        http()
            .send(
                http()
                    .request("/oauth/token?client_assertion=" + assertion)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                    .build());
    assertEquals(400, inQuery.statusCode(), inQuery.body());
    // None of those used the jti: the assertion still gets its one token.
    assertEquals(200, tokenWith(assertion).statusCode());
  }

  /** TokenClient (issue 22) signs a fresh assertion for each request, by each key type. */
  @Test
  void whenTokenClientSignsWithItsPrivateKeyThenItGetsTokens() throws Exception {
    String admin = admin();
    for (ClientKeyPair key : List.of(ClientKeyPair.ec("c1"), ClientKeyPair.rsa("c2"))) {
      String id = keyAccount(admin, key);
      for (String alg : key.isEc() ? List.of("ES256") : List.of("RS256", "PS256")) {
        TokenClient client =
            TokenClient.builder()
                .baseUrl(URI.create(Deployments.ISSUER))
                .clientId(id)
                .privateKeyJwt(key.pair().getPrivate(), key.kid(), alg)
                .build();
        String token = client.token();
        assertEquals(3, token.split("\\.").length, alg);
        client.reportUnauthorized(token);
        assertFalse(client.token().equals(token), alg + ": a second request, a second token");
      }
    }
  }

  /**
   * The attacker review of issue 22: a manager's right to create in an organization is checked
   * before a jwks_uri is looked up, so one beyond its reach learns nothing of any host name; within
   * its reach, the answer names no address.
   */
  @Test
  void whenAManagerRegistersAJwksUriThenItsReachComesBeforeAnyLookup() {
    String admin = admin();
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                admin,
                "{\"name\":\"manager\",\"organization_id\":\"org-m\","
                    + "\"scopes\":[\"identity:accounts.manage\",\"marketing:*\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode manager = Http.json(created);
    HttpResponse<String> token =
        token(
            "grant_type=client_credentials",
            basic(manager.get("client_id").asText(), manager.get("client_secret").asText()));
    String managerToken = Http.json(token).get("access_token").asText();
    String probe =
        "{\"name\":\"probe\",\"organization_id\":\"%s\",\"scopes\":[\"marketing:*\"],"
            + "\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks_uri\":\"https://%s/j\"}";
    for (String host : List.of("127.0.0.1", "localhost", "no-such-host.invalid")) {
      HttpResponse<String> elsewhere =
          http().admin("POST", "/service-accounts", managerToken, probe.formatted("org-k", host));
      assertEquals(403, elsewhere.statusCode(), host + ": " + elsewhere.body());
      assertFalse(elsewhere.body().contains("address"), elsewhere.body());
      HttpResponse<String> own =
          http().admin("POST", "/service-accounts", managerToken, probe.formatted("org-m", host));
      assertEquals(400, own.statusCode(), host + ": " + own.body());
      assertFalse(own.body().contains("127.0.0.1"), own.body());
      assertTrue(own.body().contains("only to public addresses"), own.body());
    }
  }
}
