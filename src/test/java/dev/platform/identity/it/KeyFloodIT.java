package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * Issue 26: an operator's token floods {@code rotate?immediate=true}. The key cap answers 409,
 * which spends none of the per-caller budget (issue 36), the list stays within {@code
 * identity/maxPublishedKeys} (web.xml: 10), and a verifier with the usual 64 KiB cap keeps
 * verifying a token issued before the flood.
 */
@ExtendWith(ArquillianExtension.class)
class KeyFloodIT {
  static final int MAX_PUBLISHED_KEYS = 10;

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

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
    String before = http.adminToken();
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
    // Issue 36: a refusal at the key cap costs none of the 20 rotations an hour, so none is a 429.
    assertEquals(200 - answers.get(201), answers.get(409), answers.toString());
    assertEquals(null, answers.get(429), answers.toString());
    assertEquals(Deployments.ADMIN_ID, verify(http.adminToken()), "the newest key verifies");

    // ... and revocation has a budget of its own: the compromised current key is revoked at once.
    String current =
        java.util.stream.StreamSupport.stream(
                Http.json(http.admin("GET", "/signing-keys", before, null))
                    .get("items")
                    .spliterator(),
                false)
            .filter(key -> key.get("is_current").asBoolean())
            .findFirst()
            .orElseThrow()
            .get("kid")
            .asText();
    HttpResponse<String> revoked =
        http.admin("POST", "/signing-keys/" + current + "/revoke", before, null);
    assertEquals(200, revoked.statusCode(), revoked.body());
    assertEquals("revoked", Http.json(revoked).get("state").asText(), revoked.body());
    assertEquals(
        409,
        http.admin("POST", "/signing-keys/" + current + "/revoke", before, null).statusCode(),
        "a second revocation is refused, and costs nothing");
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
