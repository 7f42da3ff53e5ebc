package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.account.AccountProfile;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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

/**
 * SPEC 8 over HTTP. The deployment trusts 127.0.0.1 as a proxy, so X-Forwarded-For stands for the
 * caller's address (no traffic leaves loopback). The minute-long window makes 61 quick requests
 * deterministic: the budget refills one token a second, far slower than they run.
 */
@ExtendWith(ArquillianExtension.class)
class RateLimitIT {
  static final String DATABASE = "it-rate-" + UUID.randomUUID();

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(DATABASE, Map.of("identity/trustedProxies", "127.0.0.1"));
  }

  @ArquillianResource URL base;

  final SecondNode node = new SecondNode(DATABASE);

  @AfterEach
  void close() {
    node.close();
  }

  SecondNode.Client client() {
    return node.create(
        new AccountProfile("rate", "org-r", List.of(), List.of("catalog:*"), "catalog"));
  }

  HttpResponse<String> token(SecondNode.Client client, String secret, String from) {
    String form =
        "grant_type=client_credentials&client_id="
            + client.id()
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    return new Http(base)
        .send(
            new Http(base)
                .request("/oauth/token")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("X-Forwarded-For", from)
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build());
  }

  @Test
  void whenTheSixtyFirstTokenIsAskedForWithinAMinuteThen429WithRetryAfter() {
    SecondNode.Client client = client();
    Instant start = Instant.now();
    for (int i = 0; i < 60; i++) {
      assertEquals(200, token(client, client.secret(), "198.51.100.1").statusCode());
    }

    HttpResponse<String> refused = token(client, client.secret(), "198.51.100.1");
    int refills = 0;
    while (refused.statusCode() == 200 && refills < 120) {
      refills++;
      refused = token(client, client.secret(), "198.51.100.1");
    }
    // Beyond the burst of 60 the bucket refills one token a second (README "Rate limits").
    assertTrue(
        refills <= Duration.between(start, Instant.now()).toSeconds() + 1, "refills " + refills);

    assertEquals(429, refused.statusCode(), refused.body());
    JsonNode body = Http.json(refused);
    assertEquals("rate_limit_exceeded", body.get("error").asText());
    long retryAfter = body.get("retry_after").asLong();
    assertTrue(retryAfter >= 1 && retryAfter <= 60, refused.body());
    assertEquals(
        Long.toString(retryAfter), refused.headers().firstValue("Retry-After").orElseThrow());
    assertEquals("no-store", refused.headers().firstValue("Cache-Control").orElseThrow());
    assertTrue(body.get("error_description").asText().length() > 0);
    SecondNode.Client other = client();
    assertEquals(200, token(other, other.secret(), "198.51.100.1").statusCode());
  }

  @Test
  void whenAStrangerFailsAgainstAClientThenTheClientStillGetsItsTokens() {
    SecondNode.Client victim = client();
    Instant start = Instant.now();
    int strangerRefused = 0;
    for (int i = 0; i < 40; i++) {
      int status = token(victim, "guess-" + i, "203.0.113.9").statusCode();
      assertTrue(status == 401 || status == 429, "status " + status);
      strangerRefused += status == 429 ? 1 : 0;
    }

    // 20 failures a minute per (client, address), refilled one every 3 s after the burst.
    long refilled = Duration.between(start, Instant.now()).toSeconds() / 3 + 1;
    assertTrue(
        strangerRefused <= 20 && strangerRefused >= 20 - refilled, "refused " + strangerRefused);
    for (int i = 0; i < 60; i++) {
      assertEquals(200, token(victim, victim.secret(), "198.51.100.2").statusCode());
    }
  }
}
