package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.client.TokenClient;
import dev.platform.identity.client.TokenClientException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
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
 * Issue 40 over HTTP: an account registered with {@code dpop_bound_access_tokens} through the
 * administration API, and {@link TokenClient} with a DPoP key getting tokens bound to it from the
 * real token endpoint, whose server nonces are on ({@code identity/dpopNonces}): the client's first
 * proof carries none, so each client gets its tokens only by retrying with the nonce it was given.
 */
@ExtendWith(ArquillianExtension.class)
class DpopTokenClientIT {
  static final ObjectMapper JSON = new ObjectMapper();

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(
        "dpop-client-" + UUID.randomUUID(), Map.of("identity/dpopNonces", "true"));
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
            "{\"name\":\"dpop\",\"organization_id\":\"org-d\",\"scopes\":[\"marketing:*\"]"
                + extra
                + "}");
  }

  static KeyPair generate(String algorithm) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
    if (algorithm.equals("EC")) {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    } else {
      generator.initialize(2048);
    }
    return generator.generateKeyPair();
  }

  static JsonNode claims(String jwt) throws Exception {
    return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
  }

  TokenClient client(JsonNode account, KeyPair dpop) {
    TokenClient.Builder builder =
        TokenClient.builder()
            .baseUrl(URI.create(Deployments.ISSUER))
            .credentials(account.get("client_id").asText(), account.get("client_secret").asText());
    return (dpop == null ? builder : builder.dpop(dpop)).build();
  }

  @Test
  void whenAnAccountIsRegisteredRequiringDpopThenTheApiShowsItAndRefusesOtherTypes() {
    String admin = admin();
    HttpResponse<String> created = create(admin, ",\"dpop_bound_access_tokens\":true");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode account = Http.json(created);
    assertTrue(account.get("dpop_bound_access_tokens").asBoolean(), created.body());
    String id = account.get("client_id").asText();
    JsonNode shown = Http.json(http().admin("GET", "/service-accounts/" + id, admin, null));
    assertTrue(shown.get("dpop_bound_access_tokens").isBoolean());
    assertTrue(shown.get("dpop_bound_access_tokens").asBoolean(), shown.toString());
    JsonNode plain = Http.json(create(admin, ""));
    assertFalse(plain.get("dpop_bound_access_tokens").asBoolean(), plain.toString());
    for (String wrong : List.of("\"true\"", "1")) {
      HttpResponse<String> refused = create(admin, ",\"dpop_bound_access_tokens\":" + wrong);
      assertEquals(400, refused.statusCode(), refused.body());
      assertEquals(
          "field 'dpop_bound_access_tokens' has the wrong type or value",
          Http.json(refused).get("message").asText());
    }
  }

  @Test
  void whenTokenClientHoldsADpopKeyThenItsTokensAreBoundToThatKey() throws Exception {
    String admin = admin();
    JsonNode account = Http.json(create(admin, ",\"dpop_bound_access_tokens\":true"));
    for (KeyPair key : List.of(generate("EC"), generate("RSA"))) {
      TokenClient client = client(account, key);
      String token = client.token();
      assertEquals("DPoP " + token, client.authorization());
      assertEquals(
          client.dpopThumbprint().orElseThrow(), claims(token).path("cnf").path("jkt").asText());
      Map<String, String> headers =
          client.headersFor("GET", URI.create(Deployments.ISSUER + "/admin/v1/scopes"));
      assertTrue(headers.get("DPoP").split("\\.").length == 3, headers.toString());
    }
    // The nonces are on: a proof without one is refused, so the client got its tokens by retrying.
    TokenClient client = client(account, generate("EC"));
    client.token();
    HttpResponse<String> noNonce =
        http()
            .send(
                http()
                    .request("/oauth/token")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header(
                        "Authorization",
                        basic(
                            account.get("client_id").asText(),
                            account.get("client_secret").asText()))
                    .header(
                        "DPoP",
                        client.proofFor("POST", URI.create(Deployments.ISSUER + "/oauth/token")))
                    .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"))
                    .build());
    assertEquals(400, noNonce.statusCode(), noNonce.body());
    assertEquals("use_dpop_nonce", Http.json(noNonce).get("error").asText());
    assertTrue(noNonce.headers().firstValue("DPoP-Nonce").isPresent());
  }

  @Test
  void whenAnAccountRequiringDpopAsksWithoutAProofThenInvalidDpopProof() {
    String admin = admin();
    JsonNode account = Http.json(create(admin, ",\"dpop_bound_access_tokens\":true"));
    TokenClientException refused =
        assertThrows(TokenClientException.class, () -> client(account, null).token());
    assertEquals(400, refused.status());
    assertEquals("invalid_dpop_proof", refused.error());
  }

  @Test
  void whenAnAccountNotRequiringDpopSendsAProofThenItsTokenIsBoundAnyway() throws Exception {
    JsonNode account = Http.json(create(admin(), ""));
    TokenClient client = client(account, generate("EC"));
    String token = client.token();
    assertEquals("DPoP " + token, client.authorization());
    assertEquals(
        client.dpopThumbprint().orElseThrow(), claims(token).path("cnf").path("jkt").asText());
    assertEquals("Bearer ", client(account, null).authorization().substring(0, 7));
  }
}
