package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import dev.platform.identity.verify.RevocationFeed;
import dev.platform.identity.verify.UnauthenticatedException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 38 end to end: the verifier library's {@link RevocationFeed}, pointed at the deployment's
 * issuer and polling its real {@code GET /oauth/revocations}, makes a {@link BearerVerifier} refuse
 * a token once the service has revoked it, by the client ({@code POST /oauth/revoke}) or by an
 * administrator's revoke-all (a token issued after the cut-off still verifies). Waits are bounded
 * polls of the verifier's answer, never fixed sleeps.
 */
@ExtendWith(ArquillianExtension.class)
class RevocationFeedIT {
  static final Duration DEADLINE = Duration.ofSeconds(20);

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  RevocationIT tools() {
    RevocationIT it = new RevocationIT();
    it.base = base;
    return it;
  }

  RevocationFeed feed() {
    return RevocationFeed.builder()
        .issuer(URI.create(Deployments.ISSUER))
        .refreshInterval(Duration.ofMillis(200))
        .build();
  }

  BearerVerifier verifier(RevocationFeed feed) {
    return BearerVerifier.builder()
        .issuer(Deployments.ISSUER)
        .keyLocator(RemotePublicKeys.builder().issuer(URI.create(base.toString())).build())
        .revocations(feed)
        .build();
  }

  /** Polls until the verifier refuses {@code token} as revoked; fails at the deadline. */
  static void awaitRevoked(BearerVerifier verifier, String token) {
    Instant deadline = Instant.now().plus(DEADLINE);
    while (Instant.now().isBefore(deadline)) {
      try {
        verifier.verify("Bearer " + token, List.of());
      } catch (UnauthenticatedException e) {
        assertEquals(401, e.status());
        assertTrue(e.getMessage().contains("token revoked"), e.getMessage());
        return;
      }
      pause();
    }
    fail("the verifier still accepts the token " + DEADLINE + " after its revocation");
  }

  /** Between two polls: spares the shared cores and the token endpoint's rate limit. */
  static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting", e);
    }
  }

  @Test
  void whenAClientRevokesItsTokenThenAVerifierPollingTheFeedRefusesIt() throws Exception {
    RevocationIT it = tools();
    RevocationIT.Client reader = it.reader();
    String token = it.token(reader);
    // The feed names the issuer the tokens carry and the verifier expects.
    JsonNode feedBody = Http.json(new Http(base).get("/oauth/revocations"));
    assertEquals(Deployments.ISSUER, feedBody.get("issuer").asText());
    assertEquals(Deployments.ISSUER, RevocationIT.claims(token).get("iss").asText());

    try (RevocationFeed feed = feed()) {
      BearerVerifier verifier = verifier(feed);
      assertEquals(reader.id(), verifier.verify("Bearer " + token, List.of()).clientId());

      HttpResponse<String> revoked = it.revoke(reader, token);
      assertEquals(200, revoked.statusCode(), revoked.body());

      awaitRevoked(verifier, token);
      assertEquals(
          reader.id(), verifier.verify("Bearer " + it.token(reader), List.of()).clientId());
    }
  }

  @Test
  void whenAnAdministratorRevokesAllThenEarlierTokensAreRefusedAndLaterOnesAccepted()
      throws Exception {
    RevocationIT it = tools();
    RevocationIT.Client reader = it.reader();
    String before = it.token(reader);
    try (RevocationFeed feed = feed()) {
      BearerVerifier verifier = verifier(feed);
      assertEquals(reader.id(), verifier.verify("Bearer " + before, List.of()).clientId());

      Http http = new Http(base);
      HttpResponse<String> all =
          http.admin(
              "POST",
              "/service-accounts/" + reader.id() + "/tokens/revoke-all",
              http.adminToken(),
              null);
      assertEquals(200, all.statusCode(), all.body());
      long notBefore =
          Instant.parse(Http.json(all).get("tokens_revoked_before").asText()).getEpochSecond();

      awaitRevoked(verifier, before);
      String after = tokenIssuedFrom(it, reader, notBefore);
      assertEquals(reader.id(), verifier.verify("Bearer " + after, List.of()).clientId());
      UnauthenticatedException still =
          assertThrows(
              UnauthenticatedException.class, () -> verifier.verify("Bearer " + before, List.of()));
      assertTrue(still.getMessage().contains("token revoked"), still.getMessage());
    }
  }

  /** A token whose iat is at or after {@code notBefore}: the cut-off's second has passed. */
  static String tokenIssuedFrom(RevocationIT it, RevocationIT.Client client, long notBefore)
      throws Exception {
    Instant deadline = Instant.now().plus(DEADLINE);
    while (Instant.now().isBefore(deadline)) {
      String token = it.token(client);
      if (RevocationIT.claims(token).get("iat").asLong() >= notBefore) {
        return token;
      }
      pause();
    }
    throw new AssertionError("no token issued from " + notBefore + " within " + DEADLINE);
  }
}
