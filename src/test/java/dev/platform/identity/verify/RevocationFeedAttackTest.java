package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.TOKEN_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 38 item 5, the attacker's angle: a feed that is huge, trickles, redirects, answers garbage
 * or names another issuer fails the poll, and the snapshot held keeps refusing what it revoked.
 */
class RevocationFeedAttackTest extends RevocationFeedFixture {
  /** A feed revoking the test token, then {@code next} served with a new ETag and polled. */
  void pollAfterGoodFeed(URI issuer, RevocationFeed feed, String next) {
    body = next;
    etag = "\"v2\"";
    feed.poll();
  }

  void assertStillRevoking(URI issuer, RevocationFeed feed) {
    assertEquals(1, feed.size(), "the snapshot held stays");
    assertEquals(1, feed.failedPolls());
    assertEquals("token revoked", refusal(verifier(feed, issuer), token(issuer)));
  }

  @Test
  void whenTheFeedIsOverTheCapThenThePollFails() throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));
    String huge =
        "{\"issuer\":\""
            + issuer
            + "\",\"tokens\":["
            + "{\"jti\":\"x\",\"exp\":1},".repeat(250_000);

    pollAfterGoodFeed(issuer, feed, huge + "{\"jti\":\"y\",\"exp\":1}],\"accounts\":[]}");

    assertTrue(huge.length() > RevocationFeed.DEFAULT_MAX_BYTES);
    assertStillRevoking(issuer, feed);
  }

  @Test
  void whenTheCapIsSetLowerThenALargerFeedFails() throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer).maxBytes(512));
    List<String> many = java.util.Collections.nCopies(20, "jti-padding-padding-padding");

    pollAfterGoodFeed(issuer, feed, feedOf(issuer.toString(), many, List.of()));

    assertStillRevoking(issuer, feed);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<html>oops</html>",
        "{}",
        "{\"issuer\":\"https://evil.example\",\"tokens\":[],\"accounts\":[]}"
      })
  void whenTheFeedAnswersGarbageOrAnotherIssuerThenThePollFails(String garbage) throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));

    pollAfterGoodFeed(issuer, feed, garbage);

    assertStillRevoking(issuer, feed);
  }

  @Test
  void whenTheFeedRedirectsThenThePollFailsAndTheTargetIsNeverAsked() throws IOException {
    StubServer elsewhere =
        StubServer.start("/", request -> new StubServer.Reply(200, Map.of(), EMPTY));
    closing.add(elsewhere);
    URI issuer =
        serve(
            request ->
                request.number() == 1
                    ? answer(request)
                    : new StubServer.Reply(
                        302, Map.of("Location", elsewhere.uri() + "/oauth/revocations"), ""));
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));
    pollAfterGoodFeed(issuer, feed, "");

    assertStillRevoking(issuer, feed);
    assertEquals(0, elsewhere.requests());
    assertThrows(
        IllegalStateException.class,
        () ->
            feedOf(issuer)
                .httpClient(
                    HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS).build())
                .build());
  }

  @Test
  void whenTheFeedTricklesPastTheDeadlineThenThePollEndsThereAndHangsUp() throws Exception {
    StallingServer[] holder = new StallingServer[1];
    StallingServer slow =
        StallingServer.start(
            n ->
                n == 1
                    ? StallingServer.Reply.complete(
                        200,
                        "ETag: \"v1\"\r\n",
                        feedOf(holder[0].uri().toString(), List.of(TOKEN_ID), List.of()))
                    : StallingServer.Reply.stalling(200, 100_000, "{\"issuer\":"));
    holder[0] = slow;
    closing.add(slow);
    URI issuer = slow.uri();
    RevocationFeed feed = built(feedOf(issuer).readTimeout(Duration.ofSeconds(1)));
    long began = System.nanoTime();

    feed.poll();

    assertTrue(Duration.ofNanos(System.nanoTime() - began).compareTo(Duration.ofSeconds(5)) < 0);
    assertTrue(slow.awaitHangUp(Duration.ofSeconds(5)), "the connection was closed");
    assertStillRevoking(issuer, feed);
  }

  @Test
  void whenTheFeedAnswers304ToAPollWithoutAnEtagThenThePollFails() throws IOException {
    URI issuer = serve(request -> new StubServer.Reply(304, Map.of("ETag", "\"v1\""), ""));

    RevocationFeed feed = built(feedOf(issuer));

    assertTrue(feed.lastGoodFetch().isEmpty(), "nothing was revalidated: there was nothing");
    assertEquals(1, feed.failedPolls());
  }

  @Test
  void whenARevokedTokenIsReplayedThenEveryReplayIsRefusedFromTheCache() throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));
    BearerVerifier verifier = verifier(feed, issuer);
    String revoked = token(issuer);

    for (int i = 0; i < 1000; i++) {
      assertEquals("token revoked", refusal(verifier, new String(revoked)));
    }
    assertEquals(1, verifier.cachedTokens());
  }
}
