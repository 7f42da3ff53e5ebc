package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.ISSUED_AT;
import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.TOKEN_ID;
import static dev.platform.identity.verify.TestTokens.serviceAccount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 item 5: a verifier refuses the tokens its issuer's revocation feed lists, on the cold
 * path and on a cache hit, and the feed follows the issuer with If-None-Match.
 */
class RevocationFeedTest extends RevocationFeedFixture {
  @Test
  void whenTheFeedListsTheJtiThenTheTokenIsRefusedColdAndOnACacheHit() throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));
    BearerVerifier verifier = verifier(feed, issuer);
    BearerVerifier uncached = verifier(feed, issuer, BearerVerifier.builder().cache(false));
    String revoked = token(issuer);

    assertEquals("token revoked", refusal(verifier, revoked));
    assertEquals("token revoked", refusal(verifier, revoked), "the hit is refused too");
    assertEquals(1, verifier.cachedTokens(), "kept, so a replay costs a lookup, not an RSA check");
    assertEquals("token revoked", refusal(uncached, revoked));
    BearerCheck.Refused refused =
        (BearerCheck.Refused) BearerCheck.of(verifier, List.of("Bearer " + revoked), List.of());
    assertEquals(401, refused.status(), "SPEC 7.2, as for any invalid token");
    assertEquals("Bearer error=\"invalid_token\"", refused.headers().get("WWW-Authenticate"));
    assertEquals("{\"success\":false,\"message\":\"token revoked\"}", refused.body());
    String other = token(issuer, "another-jti", ISSUED_AT);
    assertEquals(CLIENT_ID, verifier.verifyToken(other, List.of()).clientId());
  }

  @Test
  void whenATokenIsRevokedAfterItWasCachedThenItsNextHitIsRefused() throws IOException {
    URI issuer = serve();
    publish(EMPTY);
    RevocationFeed feed = built(feedOf(issuer));
    BearerVerifier verifier = verifier(feed, issuer);
    String token = token(issuer);
    VerifiedToken first = verifier.verifyToken(token, List.of());
    assertSame(first, verifier.verifyToken(token, List.of()), "a hit");

    publish(feed(List.of(TOKEN_ID), List.of()));
    etag = "\"v2\"";
    feed.poll();

    assertEquals("token revoked", refusal(verifier, token));
    assertEquals(1, feed.size());
  }

  @Test
  void whenTheAccountIsListedThenOlderTokensAreRefusedAndNewerOnesPass() throws IOException {
    URI issuer = serve();
    Instant notBefore = ISSUED_AT.plusSeconds(60);
    publish(feed(List.of(), List.of(account(CLIENT_ID, notBefore))));
    RevocationFeed feed = built(feedOf(issuer));
    BearerVerifier verifier = verifier(feed, issuer);

    assertEquals("token revoked", refusal(verifier, token(issuer, "a", ISSUED_AT)));
    assertEquals("token revoked", refusal(verifier, token(issuer, "b", notBefore.minusSeconds(1))));
    verifier.verifyToken(token(issuer, "c", notBefore), List.of());
    verifier.verifyToken(token(issuer, "d", notBefore.plusSeconds(1)), List.of());
    String withoutIat =
        TestTokens.signed(
            serviceAccount().issuer(issuer.toString()).id("e").issuedAt(null), KEYS.getPrivate());
    assertEquals("token revoked", refusal(verifier, withoutIat), "cannot show it is newer");
  }

  @Test
  void whenAnotherAccountIsListedThenThisOnesTokensPass() throws IOException {
    URI issuer = serve();
    publish(feed(List.of("x"), List.of(account("another-client", NOW))));
    RevocationFeed feed = built(feedOf(issuer));

    verifier(feed, issuer).verifyToken(token(issuer), List.of());
    assertEquals(2, feed.size());
  }

  @Test
  void whenNothingChangedThenThePollSendsTheEtagAnd304RenewsTheAge() throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));
    clock.advance(Duration.ofMinutes(30));

    feed.poll();

    assertNull(requests.get(0).ifNoneMatch());
    assertEquals("\"v1\"", requests.get(1).ifNoneMatch());
    assertEquals(clock.instant(), feed.lastGoodFetch().orElseThrow());
    assertEquals(Duration.ZERO, feed.age());
    assertEquals(1, feed.size(), "the snapshot held stays");
    assertEquals("token revoked", refusal(verifier(feed, issuer), token(issuer)));
  }

  @Test
  void whenTheFeedSendsNoEtagThenEveryPollIsAWholeFetch() throws IOException {
    URI issuer = serve();
    etag = null;
    publish(EMPTY);
    RevocationFeed feed = built(feedOf(issuer));

    feed.poll();

    assertNull(requests.get(1).ifNoneMatch());
    assertEquals(0, feed.failedPolls());
  }

  @Test
  void whenTheEtagFlipsOnEveryPollThenEachIsReadWholeAndTheSnapshotStaysRight() throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));

    for (int i = 2; i < 12; i++) {
      etag = "\"v" + i + "\"";
      feed.poll();
    }

    assertEquals(11, requests.size());
    assertEquals("\"v10\"", requests.get(10).ifNoneMatch(), "the last one seen is sent");
    assertEquals(1, feed.size());
    assertEquals(0, feed.failedPolls());
    assertEquals("token revoked", refusal(verifier(feed, issuer), token(issuer)));
  }

  @Test
  void whenTheBuilderMixesIssuersOrClocksThenBuildRefuses() throws IOException {
    URI issuer = serve();
    publish(EMPTY);
    RevocationFeed feed = built(feedOf(issuer));
    URI other = URI.create("http://127.0.0.1:1");

    assertThrows(IllegalStateException.class, () -> verifier(feed, other));
    assertThrows(
        IllegalStateException.class,
        () ->
            BearerVerifier.builder()
                .issuer(issuer.toString())
                .keyLocator(kid -> Optional.empty())
                .revocations(feed)
                .build(),
        "the system clock is not the feed's");
    assertThrows(
        IllegalStateException.class,
        () -> feedOf(issuer).refreshInterval(Duration.ofHours(3)).build(),
        "max staleness under the interval");
    assertThrows(
        IllegalArgumentException.class,
        () -> RevocationFeed.builder().issuer(URI.create("http://identity.example.com")));
  }

  @Test
  void whenItsOwnThreadPollsThenTheFeedFollowsTheIssuerWithoutTheTest() throws Exception {
    CountDownLatch changeSeen = new CountDownLatch(1);
    URI issuer =
        serve(
            request -> {
              if ("\"v2\"".equals(request.ifNoneMatch())) {
                changeSeen.countDown(); // it holds what the issuer published after the build
              }
              return answer(request);
            });
    publish(EMPTY);
    RevocationFeed feed =
        built(
            feedOf(issuer)
                .refreshInterval(Duration.ofMillis(20))
                .maxStaleness(Duration.ofHours(2)));
    publish(feed(List.of(TOKEN_ID), List.of()));
    etag = "\"v2\"";

    assertTrue(changeSeen.await(10, TimeUnit.SECONDS), "polled again by its thread");
    feed.close();
    assertEquals(1, feed.size());
    assertFalse(feed.lastGoodFetch().isEmpty());
  }

  @Test
  void whenTheFeedIsBuiltThenItWasPolledOnceAlready() throws IOException {
    URI issuer = serve();
    publish(feed(List.of("a", "b"), List.of()));

    RevocationFeed feed = built(feedOf(issuer));

    assertEquals(1, requests.size());
    assertEquals(2, feed.size());
    assertEquals(NOW, feed.lastGoodFetch().orElseThrow());
    try (LogCapture log = LogCapture.of(RevocationFeed.class.getName())) {
      clock.advance(Duration.ofSeconds(90));
      assertEquals(Duration.ofSeconds(90), feed.age());
      assertTrue(log.messages().isEmpty());
    }
  }
}
