package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.http.Incident;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.GrantedScopes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenAnswerTest {
  @Test
  void when400ThenSpecBodyNoStoreAndNoChallenge() {
    TokenAnswer answer = TokenAnswer.of(OAuthError.invalidRequest("missing parameter: grant_type"));

    assertEquals(400, answer.status());
    assertEquals("no-store", answer.headers().get("Cache-Control"));
    assertEquals("no-cache", answer.headers().get("Pragma"));
    assertNull(answer.headers().get("WWW-Authenticate"));
    assertNull(answer.headers().get("Retry-After"));
    assertEquals(
        "{\"error\":\"invalid_request\",\"error_description\":\"missing parameter: grant_type\"}",
        text(answer));
  }

  @Test
  void when401ToBasicThenBasicChallenge() {
    TokenAnswer answer = TokenAnswer.of(OAuthError.invalidClient("bad client", true));

    assertEquals(401, answer.status());
    assertEquals("Basic realm=\"identity\"", answer.headers().get("WWW-Authenticate"));
    assertEquals("no-store", answer.headers().get("Cache-Control"));
    assertEquals("no-cache", answer.headers().get("Pragma"));
  }

  @Test
  void when401ToBodyCredentialsThenNoChallenge() {
    TokenAnswer answer = TokenAnswer.of(OAuthError.invalidClient("bad client", false));

    assertEquals(401, answer.status());
    assertNull(answer.headers().get("WWW-Authenticate"));
  }

  @Test
  void when429ThenRetryAfterInHeaderAndBody() {
    TokenAnswer answer =
        TokenAnswer.of(OAuthError.rateLimitExceeded("too many", Duration.ofSeconds(30)));

    assertEquals(429, answer.status());
    assertEquals("30", answer.headers().get("Retry-After"));
    assertEquals(
        "{\"error\":\"rate_limit_exceeded\",\"error_description\":\"too many\",\"retry_after\":30}",
        text(answer));
  }

  @Test
  void whenDescriptionHadQuotesThenTheJsonHasNoEscapes() {
    TokenAnswer answer = TokenAnswer.of(OAuthError.invalidScope("scope \"x\\y\" is unknown"));

    assertEquals(
        "{\"error\":\"invalid_scope\",\"error_description\":\"scope 'x/y' is unknown\"}",
        text(answer));
  }

  @Test
  void whenATokenThenSpecFieldsInSnakeCaseAndNoStore() throws Exception {
    Instant issued = Instant.parse("2026-11-22T10:00:00Z");
    TokenIssuer.IssuedToken token =
        new TokenIssuer.IssuedToken(
            "a.b.c",
            issued,
            issued.plus(Duration.ofHours(24)),
            new GrantedScopes(List.of("catalog:products.view"), ChannelGrant.NONE),
            false);

    TokenAnswer answer = TokenAnswer.of(TokenResponseBody.from(token));

    assertEquals(200, answer.status());
    assertEquals("no-store", answer.headers().get("Cache-Control"));
    assertEquals(
        "{\"access_token\":\"a.b.c\",\"token_type\":\"Bearer\",\"expires_in\":86400,"
            + "\"expires_at\":"
            + issued.plus(Duration.ofHours(24)).getEpochSecond()
            + ",\"scope\":\"catalog:products.view\"}",
        text(answer));
  }

  @Test
  void whenAnIncidentThen500NamingItAndNothingElse() {
    Incident incident = new Incident("4f9c1d0e-0000-4000-8000-000000000001");

    TokenAnswer answer = TokenAnswer.of(incident);

    assertEquals(500, answer.status());
    assertEquals("no-store", answer.headers().get("Cache-Control"));
    assertEquals(
        "{\"error\":\"server_error\",\"error_description\":\"Internal error; incident "
            + incident.id()
            + " is logged\",\"incident_id\":\""
            + incident.id()
            + "\"}",
        text(answer));
  }

  @Test
  void whenNotPostThen405AllowingPost() {
    TokenAnswer answer = TokenAnswer.onlyPost();

    assertEquals(405, answer.status());
    assertEquals("POST", answer.headers().get("Allow"));
    assertEquals("no-store", answer.headers().get("Cache-Control"));
    assertTrue(text(answer).startsWith("{\"error\":\"invalid_request\""), text(answer));
  }

  private static String text(TokenAnswer answer) {
    return new String(answer.body(), StandardCharsets.UTF_8);
  }
}
