package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 38 over real HTTP: {@code POST /oauth/revoke} (RFC 7009), {@code POST /oauth/introspect}
 * (RFC 7662), the feed {@code GET /oauth/revocations}, the administration API's revocations, and
 * the administration API refusing a revoked administrator's token.
 */
@ExtendWith(ArquillianExtension.class)
class RevocationIT {
  static final String FORM = "application/x-www-form-urlencoded";
  static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  record Client(String id, String secret) {}

  Http http() {
    return new Http(base);
  }

  Client create(String scopes) {
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                http().adminToken(),
                "{\"name\":\"svc\",\"organization_id\":\"root\",\"scopes\":[" + scopes + "]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new Client(body.get("client_id").asText(), body.get("client_secret").asText());
  }

  Client reader() {
    return create("\"catalog:products.view\"");
  }

  Client introspector() {
    return create("\"identity:introspect\"");
  }

  String token(Client client) {
    return http().token(client.id(), client.secret());
  }

  /** A form POST with the client's credentials in HTTP Basic (each part form-encoded). */
  HttpResponse<String> post(String path, Client client, String form) {
    HttpRequest.Builder request =
        http()
            .request(path)
            .header("Content-Type", FORM)
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (client != null) {
      String pair = encode(client.id()) + ":" + encode(client.secret());
      request.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }
    return http().send(request.build());
  }

  HttpResponse<String> revoke(Client client, String token) {
    return post("/oauth/revoke", client, "token=" + encode(token));
  }

  JsonNode introspect(Client introspector, String token) {
    HttpResponse<String> answer = post("/oauth/introspect", introspector, "token=" + encode(token));
    assertEquals(200, answer.statusCode(), answer.body());
    assertEquals("no-store", answer.headers().firstValue("Cache-Control").orElse(null));
    return Http.json(answer);
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  static JsonNode claims(String jwt) throws Exception {
    return new ObjectMapper().readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
  }

  static String oauthError(HttpResponse<String> answer, int status) {
    assertEquals(status, answer.statusCode(), answer.body());
    assertEquals("no-store", answer.headers().firstValue("Cache-Control").orElse(null));
    return Http.json(answer).get("error").asText();
  }

  @Test
  void whenAClientRevokesItsOwnTokenThenIntrospectionSaysInactiveAndTheFeedListsIt()
      throws Exception {
    Client reader = reader();
    Client introspector = introspector();
    String token = token(reader);
    JsonNode active = introspect(introspector, token);
    assertTrue(active.get("active").asBoolean(), active.toString());
    assertEquals("catalog:products.view", active.get("scope").asText());
    assertEquals("Bearer", active.get("token_type").asText());
    assertEquals(reader.id(), active.get("client_id").asText());
    assertEquals(claims(token).get("jti").asText(), active.get("jti").asText());

    HttpResponse<String> revoked = revoke(reader, token);
    assertEquals(200, revoked.statusCode(), revoked.body());
    assertEquals("", revoked.body());
    assertEquals("no-store", revoked.headers().firstValue("Cache-Control").orElse(null));

    assertEquals(
        "{\"active\":false}", post("/oauth/introspect", introspector, "token=" + token).body());
    HttpResponse<String> feed = http().get("/oauth/revocations");
    assertEquals(200, feed.statusCode());
    assertEquals("no-cache", feed.headers().firstValue("Cache-Control").orElse(null));
    assertTrue(feed.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    JsonNode body = Http.json(feed);
    assertEquals(Deployments.ISSUER, body.get("issuer").asText());
    String jti = claims(token).get("jti").asText();
    JsonNode listed = find(body.get("tokens"), "jti", jti);
    assertEquals(claims(token).get("exp").asLong(), listed.get("exp").asLong());

    String etag = feed.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> unchanged =
        http()
            .send(http().request("/oauth/revocations").header("If-None-Match", etag).GET().build());
    assertEquals(304, unchanged.statusCode());
    assertEquals("", unchanged.body());
    assertEquals(etag, unchanged.headers().firstValue("ETag").orElse(null));

    // Revoking it again, or a token that is no token, is a 200 that changes nothing.
    assertEquals(200, revoke(reader, token).statusCode());
    assertEquals(200, revoke(reader, "not-a-token").statusCode());
    assertEquals(200, revoke(reader, "a.b.c").statusCode());
  }

  @Test
  void whenAnotherClientRevokesATokenThenItIsRefusedAndTheTokenStaysActive() {
    Client owner = reader();
    Client stranger = reader();
    Client introspector = introspector();
    String token = token(owner);

    assertEquals("unauthorized_client", oauthError(revoke(stranger, token), 400));

    assertTrue(introspect(introspector, token).get("active").asBoolean());
  }

  @Test
  void whenTheRequestIsMalformedThenTheTokenEndpointsAnswersApply() {
    Client reader = reader();
    assertEquals("invalid_request", oauthError(post("/oauth/revoke", reader, ""), 400));
    assertEquals(
        "invalid_request", oauthError(post("/oauth/revoke", reader, "token=a&token=b"), 400));
    assertEquals(
        "invalid_request", oauthError(post("/oauth/introspect", reader, "token=a&token=b"), 400));
    assertEquals("invalid_client", oauthError(post("/oauth/revoke", null, "token=abc"), 401));
    assertEquals("invalid_client", oauthError(post("/oauth/introspect", null, "token=abc"), 401));
    Client wrong = new Client(reader.id(), "wrong-secret");
    assertEquals("invalid_client", oauthError(post("/oauth/revoke", wrong, "token=abc"), 401));
    HttpResponse<String> get = http().get("/oauth/revoke");
    assertEquals("invalid_request", oauthError(get, 405));
    assertEquals("POST", get.headers().firstValue("Allow").orElse(null));
    // The credentials in the form, as client_secret_post, work as at the token endpoint.
    HttpResponse<String> posted =
        post(
            "/oauth/revoke",
            null,
            "client_id=" + reader.id() + "&client_secret=" + reader.secret() + "&token=x");
    assertEquals(200, posted.statusCode(), posted.body());
  }

  @Test
  void whenTheIntrospectorLacksTheScopeOrIsDeactivatedThenItIsRefused() {
    Client reader = reader();
    String token = token(reader);
    assertEquals(
        "insufficient_scope", oauthError(post("/oauth/introspect", reader, "token=" + token), 403));

    Client introspector = introspector();
    HttpResponse<String> deactivated =
        http()
            .admin(
                "POST",
                "/service-accounts/" + introspector.id() + "/deactivate",
                http().adminToken(),
                null);
    assertEquals(200, deactivated.statusCode(), deactivated.body());
    assertEquals(
        "invalid_client",
        oauthError(post("/oauth/introspect", introspector, "token=" + token), 401));
  }

  @Test
  void whenATokenIsForgedOrForeignThenIntrospectionSaysExactlyInactive() throws Exception {
    Client introspector = introspector();
    String real = token(reader());
    JsonNode header =
        new ObjectMapper().readTree(Base64.getUrlDecoder().decode(real.split("\\.")[0]));
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair fresh = generator.generateKeyPair();
    String payload =
        new String(Base64.getUrlDecoder().decode(real.split("\\.")[1]), StandardCharsets.UTF_8);
    String forged = signed(header.toString(), payload, fresh);
    String foreign =
        signed(
            "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"elsewhere\"}",
            payload.replace(Deployments.ISSUER, "https://issuer.example"),
            fresh);
    for (String token : List.of(forged, foreign, "garbage", real.substring(0, real.length() - 4))) {
      HttpResponse<String> answer =
          post("/oauth/introspect", introspector, "token=" + encode(token));
      assertEquals(200, answer.statusCode(), answer.body());
      assertEquals("{\"active\":false}", answer.body());
    }
  }

  @Test
  void whenARevokedAdministratorTokenIsUsedThenTheAdministrationApiRefusesIt() {
    Client admin = create("\"identity:admin\"");
    String token = token(admin);
    assertEquals(200, http().admin("GET", "/service-accounts", token, null).statusCode());

    assertEquals(200, revoke(admin, token).statusCode());

    HttpResponse<String> refused = http().admin("GET", "/service-accounts", token, null);
    assertEquals(401, refused.statusCode(), refused.body());
    assertFalse(Http.json(refused).get("success").asBoolean());
  }

  @Test
  void whenAnAccountIsDeactivatedThenItsTokensAreRevokedAndItsHashedSubIsListed() throws Exception {
    Client reader = reader();
    Client introspector = introspector();
    String token = token(reader);
    HttpResponse<String> deactivated =
        http()
            .admin(
                "POST",
                "/service-accounts/" + reader.id() + "/deactivate",
                http().adminToken(),
                null);
    assertEquals(200, deactivated.statusCode(), deactivated.body());

    assertEquals(
        "{\"active\":false}", post("/oauth/introspect", introspector, "token=" + token).body());
    JsonNode entry =
        find(
            Http.json(http().get("/oauth/revocations")).get("accounts"),
            "sub_sha256",
            sha256(reader.id()));
    assertTrue(claims(token).get("iat").asLong() < entry.get("not_before").asLong());
    assertEquals(86400, entry.get("until").asLong() - entry.get("not_before").asLong());
    assertFalse(http().get("/oauth/revocations").body().contains(reader.id()));
  }

  @Test
  void whenAnAdministratorRevokesByJtiOrAllTokensThenTheFeedAndIntrospectionFollow()
      throws Exception {
    Client reader = reader();
    Client introspector = introspector();
    String admin = http().adminToken();
    String token = token(reader);
    String jti = claims(token).get("jti").asText();

    HttpResponse<String> one =
        http()
            .admin(
                "POST",
                "/service-accounts/" + reader.id() + "/tokens/revoke",
                admin,
                "{\"jti\":\"" + jti + "\"}");
    assertEquals(200, one.statusCode(), one.body());
    assertEquals(jti, Http.json(one).get("jti").asText());
    find(Http.json(http().get("/oauth/revocations")).get("tokens"), "jti", jti);
    assertFalse(introspect(introspector, token).get("active").asBoolean());
    assertEquals(
        400,
        http()
            .admin(
                "POST",
                "/service-accounts/" + reader.id() + "/tokens/revoke",
                admin,
                "{\"jti\":\"x\",\"jti\":\"y\"}")
            .statusCode());

    String other = token(reader);
    HttpResponse<String> all =
        http()
            .admin("POST", "/service-accounts/" + reader.id() + "/tokens/revoke-all", admin, null);
    assertEquals(200, all.statusCode(), all.body());
    Instant before = Instant.parse(Http.json(all).get("tokens_revoked_before").asText());
    assertTrue(claims(other).get("iat").asLong() < before.getEpochSecond());
    assertFalse(introspect(introspector, other).get("active").asBoolean());

    // A rotation that revokes the tokens says from when.
    HttpResponse<String> rotated =
        http()
            .admin(
                "POST",
                "/service-accounts/" + reader.id() + "/secret",
                admin,
                "{\"revoke_tokens\":true}");
    assertEquals(200, rotated.statusCode(), rotated.body());
    assertTrue(Http.json(rotated).has("tokens_revoked_before"), rotated.body());
  }

  /**
   * Attack: a manager of one organization names an account within its reach and the jti of a token
   * of another organization (read from a token that reached its own resource server). A jti is
   * revoked wherever it is, so only identity:admin revokes by jti; the token stays active.
   */
  @Test
  void whenAManagerRevokesAJtiOfAnotherOrganizationThroughItsOwnAccountThenItIsRefused()
      throws Exception {
    Client manager =
        inOrganization("org-a", "\"identity:accounts.manage\",\"catalog:products.view\"");
    Client own = inOrganization("org-a", "\"catalog:products.view\"");
    Client foreign = inOrganization("org-b", "\"catalog:products.view\"");
    String foreignToken = token(foreign);
    String jti = claims(foreignToken).get("jti").asText();

    HttpResponse<String> refused =
        http()
            .admin(
                "POST",
                "/service-accounts/" + own.id() + "/tokens/revoke",
                token(manager),
                "{\"jti\":\"" + jti + "\"}");

    assertEquals(403, refused.statusCode(), refused.body());
    assertTrue(introspect(introspector(), foreignToken).get("active").asBoolean());
    assertFalse(http().get("/oauth/revocations").body().contains(jti));
    HttpResponse<String> all =
        http()
            .admin(
                "POST",
                "/service-accounts/" + own.id() + "/tokens/revoke-all",
                token(manager),
                null);
    assertEquals(200, all.statusCode(), all.body());
  }

  Client inOrganization(String organization, String scopes) {
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                http().adminToken(),
                "{\"name\":\"svc\",\"organization_id\":\""
                    + organization
                    + "\",\"scopes\":["
                    + scopes
                    + "]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new Client(body.get("client_id").asText(), body.get("client_secret").asText());
  }

  @Test
  void whenDiscoveryIsReadThenItNamesTheEndpoints() {
    JsonNode metadata = Http.json(http().get("/.well-known/oauth-authorization-server"));
    assertEquals(
        Deployments.ISSUER + "/oauth/revoke", metadata.get("revocation_endpoint").asText());
    assertEquals(
        Deployments.ISSUER + "/oauth/introspect", metadata.get("introspection_endpoint").asText());
    assertTrue(
        metadata
            .get("revocation_endpoint_auth_methods_supported")
            .toString()
            .contains("client_secret_basic"));
    assertTrue(
        metadata
            .get("introspection_endpoint_auth_methods_supported")
            .toString()
            .contains("private_key_jwt"));
  }

  @Test
  void whenThePathIsSpelledOddlyThenItBehavesAsTheTokenEndpointDoes() {
    Client reader = reader();
    String grant = "grant_type=client_credentials";
    for (String spelling :
        List.of(
            "/oauth//%s",
            "/oauth/%s;jsessionid=0123456789ABCDEF",
            "/oauth/%s/",
            "/oauth/%s/x",
            "/OAUTH/%s",
            "//oauth/%s;x")) {
      HttpResponse<String> token = post(spelling.formatted("token"), reader, grant);
      for (String endpoint : List.of("revoke", "introspect")) {
        HttpResponse<String> answer = post(spelling.formatted(endpoint), reader, "token=x");
        String path = spelling.formatted(endpoint);
        if (token.statusCode() == 200) {
          // The token endpoint answered: so does this one (the introspector needs its scope).
          assertTrue(List.of(200, 403).contains(answer.statusCode()), path + ": " + answer.body());
        } else {
          assertEquals(token.statusCode(), answer.statusCode(), path + ": " + answer.body());
          assertEquals(Http.json(token).get("error"), Http.json(answer).get("error"), path);
        }
      }
    }
  }

  static JsonNode find(JsonNode list, String field, String value) {
    for (JsonNode entry : list) {
      if (entry.get(field).asText().equals(value)) {
        return entry;
      }
    }
    throw new AssertionError(value + " is not in " + list);
  }

  static String sha256(String text) throws Exception {
    return BASE64URL.encodeToString(
        MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  static String signed(String header, String payload, KeyPair key) throws Exception {
    String input =
        BASE64URL.encodeToString(header.getBytes(StandardCharsets.UTF_8))
            + "."
            + BASE64URL.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    Signature rs256 = Signature.getInstance("SHA256withRSA");
    rs256.initSign(key.getPrivate());
    rs256.update(input.getBytes(StandardCharsets.US_ASCII));
    return input + "." + BASE64URL.encodeToString(rs256.sign());
  }
}
