package dev.platform.identity.it;

import static java.nio.charset.StandardCharsets.UTF_8;
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
import java.util.Base64;
import java.util.List;
import java.util.Locale;
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
    return post(
        "grant_type=client_credentials&client_id="
            + client.id()
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8),
        null,
        from);
  }

  HttpResponse<String> post(String form, String authorization, String from) {
    HttpRequest.Builder request =
        new Http(base)
            .request("/oauth/token")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("X-Forwarded-For", from)
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return new Http(base).send(request.build());
  }

  /**
   * The ways of naming one client that the token endpoint accepts: its form parser drops empty
   * values and decodes names and values, and its account lookup ignores the UUID's case.
   */
  static List<String[]> waysToName(SecondNode.Client client) {
    String id = client.id().toString();
    String secret = "&client_secret=" + URLEncoder.encode(client.secret(), StandardCharsets.UTF_8);
    String grant = "grant_type=client_credentials&";
    String basic =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (id.toUpperCase(Locale.ROOT) + ":" + URLEncoder.encode(client.secret(), UTF_8))
                        .getBytes(UTF_8));
    return List.of(
        new String[] {grant + "client_id=" + id + secret, null},
        new String[] {grant + "client_id=&client_id=" + id + secret, null},
        new String[] {grant + "client_id=" + id + "&client_id=" + secret, null},
        new String[] {grant + "client_id=" + id.toUpperCase(Locale.ROOT) + secret, null},
        new String[] {grant + "client_id=%" + hex(id.charAt(0)) + id.substring(1) + secret, null},
        new String[] {grant + "client%5Fid=" + id + secret, null},
        new String[] {grant + "client_id=", basic});
  }

  static String hex(char c) {
    return Integer.toHexString(c).toUpperCase(Locale.ROOT);
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
    // Beyond the burst of 60 the bucket refills one token a second (docs/rate-limits.md).
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
  void whenOneClientIsNamedInEveryWayTheEndpointAcceptsThenAllTheWaysShareItsSixty() {
    SecondNode.Client client = client();
    List<String[]> ways = waysToName(client);
    Instant start = Instant.now();
    int issued = 0;
    for (int i = 0; i < 120; i++) {
      String[] way = ways.get(i % ways.size());
      HttpResponse<String> response = post(way[0], way[1], "198.51.100.3");
      assertTrue(response.statusCode() == 200 || response.statusCode() == 429, response.body());
      issued += response.statusCode() == 200 ? 1 : 0;
    }

    // Each way on its own is a token: the endpoint accepts them all.
    long refills = Duration.between(start, Instant.now()).toSeconds() + 1;
    assertTrue(issued >= 60 && issued <= 60 + refills, "issued " + issued);
    String spaced = "grant_type=client_credentials&client_id=+" + client.id() + "&client_secret=x";
    assertEquals(401, post(spaced, null, "198.51.100.3").statusCode());
  }

  @Test
  void whenTheClientIsNamedTwiceThenInvalidRequestCountedAgainstTheAddress() {
    SecondNode.Client client = client();
    String twice =
        "grant_type=client_credentials&client_id="
            + client.id()
            + "&client_id="
            + client.id().toString().toUpperCase(Locale.ROOT)
            + "&client_secret="
            + URLEncoder.encode(client.secret(), UTF_8);
    Instant start = Instant.now();
    int refused = 0;
    HttpResponse<String> response = post(twice, null, "198.51.100.4");
    while (response.statusCode() == 400 && refused < 400) {
      assertEquals("invalid_request", Http.json(response).get("error").asText());
      assertEquals("no-store", response.headers().firstValue("Cache-Control").orElseThrow());
      refused++;
      response = post(twice, null, "198.51.100.4");
    }

    // 300 failures a minute per address, refilled five a second after the burst.
    long refilled = 5 * (Duration.between(start, Instant.now()).toSeconds() + 1);
    assertEquals(429, response.statusCode(), response.body());
    assertTrue(refused >= 300 && refused <= 300 + refilled, "refused " + refused);
    assertEquals(200, token(client, client.secret(), "198.51.100.5").statusCode());
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
