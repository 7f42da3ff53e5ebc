package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26: an operator's token floods {@code rotate?immediate=true}. The key cap answers 409, the
 * per-caller budget 429, the list stays within {@code identity/maxPublishedKeys} (web.xml: 10), and
 * a verifier with the usual 64 KiB cap keeps verifying a token issued before the flood.
 */
@ExtendWith(ArquillianExtension.class)
class KeyFloodIT {
  static final int MAX_PUBLISHED_KEYS = 10;

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  String adminToken(Http http) {
    String form =
        "grant_type=client_credentials&client_id="
            + Deployments.ADMIN_ID
            + "&client_secret="
            + URLEncoder.encode(Deployments.ADMIN_SECRET, StandardCharsets.UTF_8);
    return Http.json(
            http.send(
                http.request("/oauth/token")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form))
                    .build()))
        .get("access_token")
        .asText();
  }

  /** A verifier that has never seen the list: it fetches it now, at most 64 KiB of it. */
  String verify(String token) {
    RemotePublicKeys keys =
        RemotePublicKeys.builder().issuer(URI.create(base.toString())).maxBytes(64 * 1024).build();
    return BearerVerifier.builder()
        .issuer(Deployments.ISSUER)
        .keyLocator(keys)
        .build()
        .verify("Bearer " + token, List.of())
        .clientId();
  }

  @Test
  void whenAnOperatorFloodsImmediateRotationsThenRefusedAndEarlierTokensStillVerify() {
    Http http = new Http(base);
    String before = adminToken(http);
    Map<Integer, Integer> answers = new TreeMap<>();

    for (int i = 0; i < 200; i++) {
      HttpResponse<String> rotated =
          http.send(
              http.request("/admin/v1/signing-keys/rotate?immediate=true")
                  .header("Authorization", "Bearer " + before)
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build());
      answers.merge(rotated.statusCode(), 1, Integer::sum);
      checkAnswer(rotated);
      int listed = Http.json(http.get("/api/public-keys")).get("keys").size();
      assertTrue(listed <= MAX_PUBLISHED_KEYS, "request " + i + ": " + listed + " keys listed");
      assertEquals(Deployments.ADMIN_ID, verify(before), "request " + i);
    }

    assertEquals(MAX_PUBLISHED_KEYS - 2, answers.get(201), answers.toString());
    assertEquals(20 - answers.get(201), answers.get(409), "the budget: 20 an hour " + answers);
    assertEquals(180, answers.get(429), answers.toString());
    assertEquals(Deployments.ADMIN_ID, verify(adminToken(http)), "the newest key verifies");
  }

  private static void checkAnswer(HttpResponse<String> answer) {
    switch (answer.statusCode()) {
      case 201 -> assertEquals("current", Http.json(answer).get("state").asText());
      case 409 -> {
        assertFalse(Http.json(answer).get("success").asBoolean());
        String message = Http.json(answer).get("message").asText();
        assertTrue(message.startsWith("9 signing keys are listed and at most 10"), message);
        assertTrue(message.contains("the first leaves the list at "), message);
      }
      case 429 -> {
        assertFalse(Http.json(answer).get("success").asBoolean(), answer.body());
        long retryAfter = Long.parseLong(answer.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter > 0 && retryAfter <= 181, "Retry-After: " + retryAfter);
      }
      default -> throw new AssertionError(answer.statusCode() + " " + answer.body());
    }
  }
}
