package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 21 §3: {@code /openapi.json} as the running service serves it, held to the service's own
 * answers: every documented operation answers with a status the document lists for it, and the
 * documented fields of a token, an account, a created account and a new secret are the real ones.
 */
@ExtendWith(ArquillianExtension.class)
class OpenApiIT {
  static final ObjectMapper JSON = new ObjectMapper();

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war("openapi-" + UUID.randomUUID(), Map.of());
  }

  @ArquillianResource URL base;

  Http http() {
    return new Http(base);
  }

  OpenAPI served() {
    HttpResponse<String> answer = http().get("/openapi.json");
    assertEquals(200, answer.statusCode());
    assertTrue(
        answer.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    return new OpenAPIV3Parser().readContents(answer.body(), null, options).getOpenAPI();
  }

  HttpResponse<String> token(String scope) {
    String pair =
        Deployments.ADMIN_ID
            + ":"
            + URLEncoder.encode(Deployments.ADMIN_SECRET, StandardCharsets.UTF_8);
    return http()
        .send(
            http()
                .request("/oauth/token")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "grant_type=client_credentials" + (scope == null ? "" : "&scope=" + scope)))
                .build());
  }

  String admin() {
    return Http.json(token(null)).get("access_token").asText();
  }

  JsonNode newAccount(String admin) {
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                admin,
                "{\"name\":\"openapi\",\"organization_id\":\"org-o\",\"scopes\":[\"marketing:*\"]}");
    assertEquals(201, created.statusCode(), created.body());
    return Http.json(created);
  }

  /** The path with its parameters filled by things that exist now. */
  String concrete(String template, String admin) {
    String path = template;
    if (path.contains("{clientId}")) {
      path = path.replace("{clientId}", newAccount(admin).get("client_id").asText());
    }
    if (path.contains("{keyId}")) {
      path =
          path.replace(
              "{keyId}",
              Http.json(http().get("/api/public-keys")).get("keys").get(0).get("kid").asText());
    }
    if (path.contains("{kid}")) {
      HttpResponse<String> rotated = http().admin("POST", "/signing-keys/rotate", admin, null);
      assertEquals(201, rotated.statusCode(), rotated.body());
      path = path.replace("{kid}", Http.json(rotated).get("kid").asText());
    }
    return path.replace("{scope}", "marketing:reports.view");
  }

  @Test
  void whenEveryDocumentedOperationIsCalledThenItAnswersWithADocumentedStatus() throws Exception {
    OpenAPI api = served();
    String admin = admin();
    int called = 0;
    for (Map.Entry<String, PathItem> entry : api.getPaths().entrySet()) {
      for (Map.Entry<PathItem.HttpMethod, Operation> operation :
          entry.getValue().readOperationsMap().entrySet()) {
        String method = operation.getKey().name();
        Operation described = operation.getValue();
        String path = concrete(entry.getKey(), admin);
        HttpRequest.Builder request = http().request(path);
        String body = null;
        String type = null;
        if (described.getRequestBody() != null) {
          Map.Entry<String, MediaType> content =
              described.getRequestBody().getContent().entrySet().iterator().next();
          type = content.getKey();
          Object example = content.getValue().getExample();
          body = example instanceof String text ? text : JSON.writeValueAsString(example);
        }
        if (entry.getKey().equals("/oauth/token")) {
          HttpResponse<String> answer = token(null);
          assertDocumented(described, method + " " + path, answer);
          called++;
          continue;
        }
        if (described.getSecurity() != null
            && described.getSecurity().stream().anyMatch(s -> s.containsKey("bearer"))) {
          request.header("Authorization", "Bearer " + admin);
        }
        if (type != null) {
          request.header("Content-Type", type);
        }
        request.method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        assertDocumented(described, method + " " + path, http().send(request.build()));
        called++;
      }
    }
    assertTrue(called >= 20, called + " operations");
  }

  static void assertDocumented(Operation operation, String call, HttpResponse<String> answer) {
    Set<String> statuses = operation.getResponses().keySet();
    assertTrue(
        statuses.contains(Integer.toString(answer.statusCode())),
        call
            + " answered "
            + answer.statusCode()
            + ", documented "
            + statuses
            + ": "
            + answer.body());
  }

  static Set<String> properties(OpenAPI api, String schema) {
    Schema<?> found = api.getComponents().getSchemas().get(schema);
    return new TreeSet<>(found.getProperties().keySet());
  }

  static Set<String> without(Set<String> names, Set<String> absent) {
    Set<String> left = new TreeSet<>(names);
    left.removeAll(absent);
    return left;
  }

  static Set<String> fields(JsonNode body) {
    Set<String> names = new TreeSet<>();
    body.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void whenATokenAndAnAccountAreRealThenTheirFieldsAreTheDocumentedOnes() {
    OpenAPI api = served();
    assertEquals(properties(api, "TokenResponse"), fields(Http.json(token(null))));
    String admin = admin();
    JsonNode created = newAccount(admin);
    // A secret account has no key set (issue 22) and no certificate subject (issue 39); a key
    // account, below, has no secret.
    Set<String> subjects =
        Set.of(
            "tls_client_auth_subject_dn",
            "tls_client_auth_san_dns",
            "tls_client_auth_san_uri",
            "tls_client_auth_san_ip",
            "tls_client_auth_san_email");
    Set<String> keysOnly = new TreeSet<>(subjects);
    keysOnly.addAll(Set.of("jwks", "jwks_uri"));
    assertEquals(without(properties(api, "AccountCreated"), keysOnly), fields(created));
    String id = created.get("client_id").asText();
    HttpResponse<String> rotated =
        http()
            .admin(
                "POST",
                "/service-accounts/" + id + "/secret",
                admin,
                "{\"previous_secret_valid_for\":\"PT1H\",\"revoke_tokens\":true}");
    assertEquals(properties(api, "NewSecret"), fields(Http.json(rotated)));
    // With a rotation's overlap running, the account shows every documented field.
    JsonNode account = Http.json(http().admin("GET", "/service-accounts/" + id, admin, null));
    assertEquals(without(properties(api, "Account"), keysOnly), fields(account));
    Set<String> required =
        new TreeSet<>(api.getComponents().getSchemas().get("Account").getRequired());
    JsonNode plain =
        Http.json(
            http()
                .admin(
                    "GET",
                    "/service-accounts/" + newAccount(admin).get("client_id").asText(),
                    admin,
                    null));
    required.add("secret_created_at");
    assertEquals(
        required, fields(plain), "without an overlap, the required fields and the secret's");
    JsonNode keyAccount =
        Http.json(
            http()
                .admin(
                    "POST",
                    "/service-accounts",
                    admin,
                    "{\"name\":\"openapi keys\",\"organization_id\":\"org-o\","
                        + "\"scopes\":[\"marketing:*\"],\"token_endpoint_auth_method\":"
                        + "\"private_key_jwt\",\"jwks\":"
                        + ClientKeyPair.ec("k").jwks()
                        + "}"));
    assertEquals(
        without(
            without(properties(api, "AccountCreated"), subjects),
            Set.of("client_secret", "jwks_uri")),
        fields(keyAccount));
    JsonNode shownKeys =
        Http.json(
            http()
                .admin(
                    "GET",
                    "/service-accounts/" + keyAccount.get("client_id").asText(),
                    admin,
                    null));
    Set<String> keyFields =
        new TreeSet<>(api.getComponents().getSchemas().get("Account").getRequired());
    keyFields.add("jwks");
    assertEquals(keyFields, fields(shownKeys));
    JsonNode keys = Http.json(http().admin("GET", "/signing-keys", admin, null));
    assertEquals(properties(api, "SigningKeyList"), fields(keys));
    assertEquals(properties(api, "KeyStatus"), fields(keys.get("items").get(0)));
  }
}
