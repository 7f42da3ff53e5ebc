package dev.platform.identity.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.client.TokenClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Calls to the service's {@code /admin/v1} (docs/api.md) as its bootstrap administrator. */
final class AdminCalls {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final URI issuer;
  private final TokenClient admin;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  AdminCalls(URI issuer, TokenClient admin) {
    this.issuer = issuer;
    this.admin = admin;
  }

  /** {@code PUT /scopes/{scope}}: the scope is in the catalog (201 new, 200 already). */
  void ensureScope(String scope) {
    send("PUT", "/admin/v1/scopes/" + scope, JSON.createObjectNode().put("description", scope));
  }

  /** {@code POST /service-accounts}: the new account, its secret included. */
  JsonNode createAccount(JsonNode account) {
    return send("POST", "/admin/v1/service-accounts", account);
  }

  /**
   * {@code POST /signing-keys/rotate?immediate=true}: the kid of the key that signs from now on.
   */
  String rotateKey() {
    return send("POST", "/admin/v1/signing-keys/rotate?immediate=true", null).get("kid").asText();
  }

  /** {@code POST /signing-keys/{kid}/revoke}. */
  void revokeKey(String kid) {
    send("POST", "/admin/v1/signing-keys/" + kid + "/revoke", null);
  }

  /** {@code GET /signing-keys}: the kid of the key that signs now. */
  String currentKid() {
    for (JsonNode key : send("GET", "/admin/v1/signing-keys", null).get("items")) {
      if (key.path("is_current").asBoolean()) {
        return key.get("kid").asText();
      }
    }
    throw new IllegalStateException("the service has no current signing key");
  }

  /**
   * Sends the call with the administrator's token; once more with a new token when the first was
   * refused, as it is once the key that signed it was revoked.
   */
  private JsonNode send(String method, String path, JsonNode body) {
    String token = admin.token();
    HttpResponse<String> response = call(method, path, body, token);
    if (response.statusCode() == 401) {
      admin.reportUnauthorized(token);
      response = call(method, path, body, admin.token());
    }
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException(
          method + " " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    try {
      return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path + " answered no JSON", e);
    }
  }

  private HttpResponse<String> call(String method, String path, JsonNode body, String token) {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(issuer.resolve(path))
              .timeout(TIMEOUT)
              .header("Authorization", "Bearer " + token)
              .method(
                  method,
                  body == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
      if (body != null) {
        request.header("Content-Type", "application/json");
      }
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + " " + path + " was interrupted", e);
    }
  }
}
