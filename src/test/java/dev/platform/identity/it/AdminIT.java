package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.TestSettings;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole ADMIN.md contract over HTTP, with the bootstrap administrator and narrower tokens. */
@ExtendWith(ArquillianExtension.class)
class AdminIT {
  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  /** The audit lines the service writes (embedded Tomcat shares this JVM's logging). */
  final LogCapture audit = LogCapture.of("dev.platform.identity.audit");

  @AfterEach
  void releaseAudit() {
    audit.close();
  }

  Http http() {
    return new Http(base);
  }

  /** A client's credentials, from the creation response. */
  record Client(String id, String secret) {}

  String adminToken() {
    return http().adminToken();
  }

  HttpResponse<String> call(String method, String path, String token, String json) {
    return http().admin(method, path, token, json);
  }

  Client create(String token, String json) {
    HttpResponse<String> response = call("POST", "/service-accounts", token, json);
    assertEquals(201, response.statusCode(), response.body());
    JsonNode body = Http.json(response);
    return new Client(body.get("client_id").asText(), body.get("client_secret").asText());
  }

  static String account(String org, String scopes) {
    return "{\"name\":\"svc "
        + org
        + "\",\"organization_id\":\""
        + org
        + "\",\"scopes\":["
        + scopes
        + "]}";
  }

  static String message(HttpResponse<String> response, int status) {
    assertEquals(status, response.statusCode(), response.body());
    JsonNode body = Http.json(response);
    assertFalse(body.get("success").asBoolean());
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(null));
    return body.get("message").asText();
  }

  @Test
  void whenTheTokenIsMissingOrNotABearerTokenThen401WithTheBearerChallenge() {
    String basic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((Deployments.ADMIN_ID + ":x").getBytes(StandardCharsets.UTF_8));
    List<HttpResponse<String>> withoutToken = new ArrayList<>();
    withoutToken.add(call("GET", "/service-accounts", null, null));
    withoutToken.add(
        http()
            .send(
                http()
                    .request("/admin/v1/service-accounts")
                    .header("Authorization", basic)
                    .GET()
                    .build()));
    for (HttpResponse<String> response : withoutToken) {
      message(response, 401);
      // RFC 6750 §3.1: no error code when the request carried no bearer credentials; RFC 9449
      // §7.1: DPoP is offered too.
      assertEquals(
          "Bearer, DPoP algs=\"ES256 RS256 PS256\"",
          response.headers().firstValue("WWW-Authenticate").orElse(null));
    }
    HttpResponse<String> badToken = call("GET", "/service-accounts", "not.a.jwt", null);
    message(badToken, 401);
    assertEquals(
        "Bearer error=\"invalid_token\", DPoP algs=\"ES256 RS256 PS256\"",
        badToken.headers().firstValue("WWW-Authenticate").orElse(null));
    // A path that routes nowhere is a 404 in SPEC 7.2's shape, token or not.
    message(call("GET", "/no/such/thing", null, null), 404);
  }

  @Test
  void whenAnAccountGoesThroughItsLifecycleThenTheTokenEndpointFollows() {
    String admin = adminToken();
    HttpResponse<String> created =
        call(
            "POST",
            "/service-accounts",
            admin,
            "{\"name\":\"orders\",\"organization_id\":\"org-a\",\"scopes\":[\"kitchen:orders.create\"],"
                + "\"accessible_orgs\":[\"org-b\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    String id = body.get("client_id").asText();
    String secret = body.get("client_secret").asText();
    UUID.fromString(id);
    assertEquals(43, secret.length());
    assertEquals("client_credentials", body.get("grant_type").asText());
    assertEquals("active", body.get("status").asText());
    assertEquals("kitchen", body.get("service_name").asText());
    assertEquals("[\"org-a\",\"org-b\"]", body.get("accessible_orgs").toString());
    assertTrue(
        created
            .headers()
            .firstValue("Location")
            .orElseThrow()
            .equals(Deployments.ISSUER + "/admin/v1/service-accounts/" + id));
    assertEquals(200, http().tokenResponse(id, secret).statusCode());

    JsonNode read = Http.json(call("GET", "/service-accounts/" + id, admin, null));
    assertEquals("orders", read.get("name").asText());
    assertFalse(read.has("client_secret"));
    String listed = call("GET", "/service-accounts?organization_id=org-a", admin, null).body();
    assertTrue(listed.contains(id));
    assertFalse(listed.contains(secret));
    assertFalse(listed.contains("\"client_secret\"") || listed.contains("digest"), listed);
    assertFalse(listed.contains("previous_secret"), "no overlap: " + listed);
    assertFalse(
        call("GET", "/service-accounts?organization_id=org-z", admin, null).body().contains(id));

    assertEquals(
        "deactivated",
        Http.json(call("POST", "/service-accounts/" + id + "/deactivate", admin, null))
            .get("status")
            .asText());
    HttpResponse<String> revoked = http().tokenResponse(id, secret);
    assertEquals(401, revoked.statusCode());
    assertTrue(revoked.body().contains("revoked"));

    assertEquals(
        "active",
        Http.json(call("POST", "/service-accounts/" + id + "/reactivate", admin, null))
            .get("status")
            .asText());
    assertEquals(200, http().tokenResponse(id, secret).statusCode());

    JsonNode rotated = Http.json(call("POST", "/service-accounts/" + id + "/secret", admin, null));
    String newSecret = rotated.get("client_secret").asText();
    assertEquals(id, rotated.get("client_id").asText());
    assertNotEquals(secret, newSecret);
    assertEquals(401, http().tokenResponse(id, secret).statusCode());
    assertEquals(200, http().tokenResponse(id, newSecret).statusCode());

    HttpResponse<String> deleted = call("DELETE", "/service-accounts/" + id, admin, null);
    assertEquals(204, deleted.statusCode());
    HttpResponse<String> afterDelete = http().tokenResponse(id, newSecret);
    assertEquals(401, afterDelete.statusCode());
    assertTrue(afterDelete.body().contains("revoked"));
    message(call("GET", "/service-accounts/" + id, admin, null), 404);
    message(call("POST", "/service-accounts/" + id + "/reactivate", admin, null), 404);
    assertFalse(call("GET", "/service-accounts", admin, null).body().contains(id));

    List<String> changes =
        audit.messages().stream()
            .filter(line -> line.contains("\"target\":\"" + id + "\""))
            .filter(line -> line.contains("\"actor\":\"" + Deployments.ADMIN_ID + "\""))
            .map(line -> line.replaceAll(".*\"event\":\"([^\"]+)\".*", "$1"))
            .toList();
    assertEquals(
        List.of(
            "account.create",
            "account.deactivate",
            "account.reactivate",
            "account.secret.rotate",
            "account.delete"),
        changes);
    assertTrue(
        audit.messages().stream().anyMatch(line -> line.contains("\"event\":\"token.issue\"")));
    assertTrue(
        audit.messages().stream()
            .anyMatch(line -> line.contains("\"outcome\":\"invalid_client\"")));
    for (String line : audit.messages()) {
      assertFalse(line.contains(secret) || line.contains(newSecret) || line.contains(admin), line);
    }
  }

  @Test
  void whenASecretIsRotatedWithAnOverlapThenBothSecretsWorkAndTheAuditLineSaysWhich() {
    String admin = adminToken();
    Client client = create(admin, account("org-r", "\"catalog:*\""));
    String path = "/service-accounts/" + client.id() + "/secret";

    HttpResponse<String> response =
        call("POST", path, admin, "{\"previous_secret_valid_for\": \"PT24H\"}");
    assertEquals(200, response.statusCode(), response.body());
    JsonNode rotated = Http.json(response);
    String newSecret = rotated.get("client_secret").asText();
    Instant expiresAt = Instant.parse(rotated.get("previous_secret_expires_at").asText());
    assertTrue(
        Duration.between(Instant.now(), expiresAt).compareTo(Duration.ofHours(23)) > 0,
        expiresAt.toString());
    assertEquals(200, http().tokenResponse(client.id(), newSecret).statusCode());
    assertEquals(200, http().tokenResponse(client.id(), client.secret()).statusCode());
    List<String> used =
        audit.messages().stream()
            .filter(line -> line.contains("\"token.issue\""))
            .filter(line -> line.contains(client.id()))
            .map(line -> line.replaceAll(".*\"secret\":\"(\\w+)\".*", "$1"))
            .toList();
    assertEquals(List.of("current", "previous"), used);
    assertTrue(
        audit.messages().stream()
            .anyMatch(
                line ->
                    line.contains("\"account.secret.rotate\"")
                        && line.contains(client.id())
                        && line.contains("\"previous_secret_expires_at\":\"" + expiresAt + "\"")),
        audit.messages().toString());

    JsonNode read = Http.json(call("GET", "/service-accounts/" + client.id(), admin, null));
    assertEquals(expiresAt.toString(), read.get("previous_secret_expires_at").asText());
    Instant secretCreated = Instant.parse(read.get("secret_created_at").asText());
    assertTrue(secretCreated.isAfter(Instant.parse(read.get("created_at").asText())));

    // A second rotation, without a body: the old overlap ends at once, as SPEC 3.1 says.
    String third = Http.json(call("POST", path, admin, null)).get("client_secret").asText();
    assertFalse(
        Http.json(call("GET", "/service-accounts/" + client.id(), admin, null))
            .has("previous_secret_expires_at"));
    assertEquals(401, http().tokenResponse(client.id(), client.secret()).statusCode());
    assertEquals(401, http().tokenResponse(client.id(), newSecret).statusCode());
    assertEquals(200, http().tokenResponse(client.id(), third).statusCode());
  }

  @Test
  void whenTheRotationBodyIsBadThen400NamingTheFieldAndNothingChanges() {
    String admin = adminToken();
    Client client = create(admin, account("org-r", "\"catalog:*\""));
    String path = "/service-accounts/" + client.id() + "/secret";
    String field = "previous_secret_valid_for";
    for (String body :
        List.of(
            "{\"" + field + "\":\"PT1H\",\"" + field + "\":\"PT2H\"}",
            "{\"" + field + "\":\"P8D\"}",
            "{\"" + field + "\":\"PT99999999999999999999H\"}",
            "{\"" + field + "\":\"-PT1H\"}",
            "{\"" + field + "\":\"a day\"}",
            "{\"" + field + "\":86400}",
            "{\"valid_for\":\"PT1H\"}")) {
      String message = message(call("POST", path, admin, body), 400);
      assertTrue(message.contains(field) || message.contains("valid_for"), message);
    }
    assertEquals(200, http().tokenResponse(client.id(), client.secret()).statusCode());

    // Beyond reach, a body changes nothing either: 403 without an accounts scope, 404 (as for
    // every account operation) for a manager of another organization.
    Client keeper = create(admin, account("org-r", "\"identity:keys.manage\""));
    String keys = http().token(keeper.id(), keeper.secret());
    message(call("POST", path, keys, "{\"" + field + "\":\"PT1H\"}"), 403);
    Client manager = create(admin, account("org-q", "\"identity:accounts.manage\""));
    String managerToken = http().token(manager.id(), manager.secret());
    message(call("POST", path, managerToken, "{\"" + field + "\":\"PT1H\"}"), 404);
    message(call("POST", path, managerToken, "{\"" + field + "\":\"nonsense\"}"), 404);
    assertEquals(200, http().tokenResponse(client.id(), client.secret()).statusCode());
  }

  @Test
  void whenListedBySecretAgeThenOnlyOlderSecretsAppearAndBadFiltersAre400() {
    String admin = adminToken();
    Client client = create(admin, account("org-s", "\"catalog:*\""));

    String young = call("GET", "/service-accounts?secret_older_than=P80D", admin, null).body();
    String all = call("GET", "/service-accounts?secret_older_than=PT0S", admin, null).body();
    String inOrg =
        call("GET", "/service-accounts?organization_id=org-s&secret_older_than=PT0S", admin, null)
            .body();

    assertFalse(young.contains(client.id()), young);
    assertTrue(all.contains(client.id()), all);
    assertTrue(inOrg.contains(client.id()), inOrg);
    for (String query :
        List.of(
            "secret_older_than=eighty",
            "secret_older_than=-P1D",
            "secret_older_than=P80D&secret_older_than=P10D")) {
      assertTrue(
          message(call("GET", "/service-accounts?" + query, admin, null), 400)
              .contains("secret_older_than"),
          query);
    }
  }

  @Test
  void whenInputIsInvalidThen400NamingTheField() {
    String admin = adminToken();

    assertTrue(
        message(
                call(
                    "POST",
                    "/service-accounts",
                    admin,
                    "{\"organization_id\":\"o\",\"scopes\":[\"kitchen:*\"]}"),
                400)
            .contains("name"));
    assertTrue(
        message(
                call("POST", "/service-accounts", admin, account("org-a", "\"kitchen:nope.x\"")),
                400)
            .contains("kitchen:nope.x"));
    assertTrue(
        message(call("POST", "/service-accounts", admin, account("bad org!", "\"kitchen:*\"")), 400)
            .contains("organization_id"));
    assertTrue(
        message(call("POST", "/service-accounts", admin, account("org-a", "")), 400)
            .contains("scopes"));
    assertTrue(
        message(call("POST", "/service-accounts", admin, "{\"name\":\"x\",\"color\":\"red\"}"), 400)
            .contains("color"));
    assertTrue(
        message(call("POST", "/service-accounts", admin, "{\"name\":"), 400).contains("JSON"));
    assertTrue(
        message(
                call(
                    "POST",
                    "/service-accounts",
                    admin,
                    "{\"name\":\"x\",\"scopes\":\"kitchen:*\"}"),
                400)
            .contains("scopes"));
    assertTrue(
        message(call("GET", "/service-accounts/not-a-uuid", admin, null), 400)
            .contains("client_id"));
    message(call("GET", "/service-accounts/" + UUID.randomUUID(), admin, null), 404);
    String huge = "{\"name\":\"" + "x".repeat(100_000) + "\"}";
    assertTrue(message(call("POST", "/service-accounts", admin, huge), 413).contains("larger"));
    assertTrue(
        message(call("GET", "/service-accounts?organization_id=bad%20org", admin, null), 400)
            .contains("organization_id"));
  }

  @Test
  void whenATokenManagesAccountsOfOneOrganizationThenOthersAreOutOfReach() {
    String admin = adminToken();
    Client manager = create(admin, account("org-m", "\"identity:accounts.manage\", \"catalog:*\""));
    String other = create(admin, account("org-n", "\"catalog:*\"")).id();
    String managerToken = http().token(manager.id(), manager.secret());

    String own = create(managerToken, account("org-m", "\"catalog:products.view\"")).id();
    assertTrue(call("GET", "/service-accounts", managerToken, null).body().contains(own));
    assertFalse(call("GET", "/service-accounts", managerToken, null).body().contains(other));
    assertEquals(
        200,
        call("POST", "/service-accounts/" + own + "/deactivate", managerToken, null).statusCode());

    List<HttpResponse<String>> forbidden =
        List.of(
            call("POST", "/service-accounts", managerToken, account("org-n", "\"catalog:*\"")),
            call("POST", "/service-accounts", managerToken, account("org-m", "\"identity:admin\"")),
            call("POST", "/service-accounts", managerToken, account("org-m", "\"kitchen:*\"")),
            call(
                "POST",
                "/service-accounts",
                managerToken,
                "{\"name\":\"x\",\"organization_id\":\"org-m\",\"scopes\":[\"catalog:*\"],"
                    + "\"service_name\":\"identity\"}"),
            call("GET", "/service-accounts?organization_id=org-n", managerToken, null),
            call("GET", "/signing-keys", managerToken, null),
            call("PUT", "/scopes/catalog:brands.view", managerToken, "{\"description\":\"d\"}"));
    for (HttpResponse<String> response : forbidden) {
      message(response, 403);
      assertTrue(
          response
              .headers()
              .firstValue("WWW-Authenticate")
              .orElse("")
              .startsWith("Bearer error=\"insufficient_scope\""));
    }
    // An account of another organization is out of reach: 404, as if it did not exist.
    List<HttpResponse<String>> unknown =
        List.of(
            call("GET", "/service-accounts/" + other, managerToken, null),
            call("POST", "/service-accounts/" + other + "/deactivate", managerToken, null),
            call("DELETE", "/service-accounts/" + other, managerToken, null));
    for (HttpResponse<String> response : unknown) {
      assertEquals("no service account " + other, message(response, 404));
    }
    assertEquals(200, call("GET", "/service-accounts/" + other, admin, null).statusCode());
  }

  @Test
  void whenTheCatalogIsChangedThenTheNewScopeCanBeGrantedAndRequested() {
    String admin = adminToken();
    String catalog = call("GET", "/scopes", admin, null).body();
    assertTrue(catalog.contains("\"scope\":\"kitchen:orders.create\""), catalog);

    HttpResponse<String> created =
        call(
            "PUT",
            "/scopes/catalog:brands.view",
            admin,
            "{\"description\":\"View brands.\",\"channels\":{\"subscribe\":[\"catalog.brands.*\"]}}");
    assertEquals(201, created.statusCode(), created.body());
    assertEquals("View brands.", Http.json(created).get("description").asText());
    assertEquals(
        200,
        call("PUT", "/scopes/catalog:brands.view", admin, "{\"description\":\"Brands.\"}")
            .statusCode());
    message(call("PUT", "/scopes/Not%20A%20Scope", admin, "{\"description\":\"x\"}"), 400);

    Client client = create(admin, account("org-c", "\"catalog:brands.view\""));
    HttpResponse<String> token = http().tokenResponse(client.id(), client.secret());
    assertEquals("catalog:brands.view", Http.json(token).get("scope").asText());
  }

  @Test
  void whenKeysAreRotatedAndRevokedThenTheListAndTheTokensFollow() throws Exception {
    String admin = adminToken();
    Client keeper = create(admin, account("org-k", "\"identity:keys.manage\""));
    String keys = http().token(keeper.id(), keeper.secret());
    JsonNode list = Http.json(call("GET", "/signing-keys", keys, null));
    assertEquals(0, list.get("sealed_under_previous_key_encryption_keys").asInt(-1));
    JsonNode before = list.get("items");
    assertEquals(1, before.size());
    assertEquals(
        keyEncryptionKeyId(), before.get(0).get("key_encryption_key_id").asText(), list.toString());
    String first = before.get(0).get("kid").asText();
    assertEquals("current", before.get(0).get("state").asText());

    HttpResponse<String> rotated = call("POST", "/signing-keys/rotate", keys, null);
    assertEquals(201, rotated.statusCode(), rotated.body());
    JsonNode scheduled = Http.json(rotated);
    assertEquals("scheduled", scheduled.get("state").asText());
    assertTrue(http().get("/api/public-keys").body().contains(scheduled.get("kid").asText()));

    HttpResponse<String> emergency =
        call("POST", "/signing-keys/rotate?immediate=true", keys, null);
    assertEquals(201, emergency.statusCode(), emergency.body());
    String urgent = Http.json(emergency).get("kid").asText();
    assertEquals("current", Http.json(emergency).get("state").asText());
    assertTrue(adminTokenKid().equals(urgent));

    JsonNode revoked = Http.json(call("POST", "/signing-keys/" + first + "/revoke", keys, null));
    assertEquals("revoked", revoked.get("state").asText());
    assertFalse(http().get("/api/public-keys").body().contains(first));
    assertEquals(404, http().get("/api/public-keys/" + first).statusCode());
    message(call("GET", "/signing-keys", keys, null), 401);
    keys = http().token(keeper.id(), keeper.secret());
    message(call("POST", "/signing-keys/" + first + "/revoke", keys, null), 409);
    message(call("POST", "/signing-keys/no-such-kid/revoke", keys, null), 404);
    message(call("POST", "/signing-keys/rotate?immediate=maybe", keys, null), 400);
    message(call("GET", "/service-accounts", keys, null), 403);
  }

  /** Issue 19 §2: the id of the deployment's key-encryption key. */
  static String keyEncryptionKeyId() {
    return dev.platform.identity.config.KeyId.of(
        new javax.crypto.spec.SecretKeySpec(Base64.getDecoder().decode(TestSettings.KEK), "AES"),
        dev.platform.identity.config.KeyId.Purpose.KEY_ENCRYPTION);
  }

  String adminTokenKid() {
    String header = adminToken().split("\\.")[0];
    String json = new String(Base64.getUrlDecoder().decode(header), StandardCharsets.UTF_8);
    return json.replaceAll(".*\"kid\":\"([^\"]+)\".*", "$1");
  }
}
