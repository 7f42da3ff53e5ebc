package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.NOW;
import static dev.platform.identity.verify.TestTokens.TOKEN_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 item 5: a feed whose last good poll is older than the maximum staleness (2 hours here),
 * or that never had one, fails closed (503 at the filters) or warns once a minute, as it was built
 * to. Time is the test's clock; the issuer on 127.0.0.1 starts failing with 503s.
 */
class RevocationFeedStalenessTest extends RevocationFeedFixture {
  final LogCapture log = LogCapture.of(RevocationFeed.class.getName());

  @BeforeEach
  void capture() {
    closing.add(log::close);
  }

  long warnings() {
    return log.messages().stream().filter(m -> m.contains("maximum staleness")).count();
  }

  @Test
  void whenFailClosedAndThePollsFailPastTheMaxStalenessThenEveryTokenGets503() throws IOException {
    URI issuer = serve();
    publish(EMPTY);
    RevocationFeed feed = built(feedOf(issuer).onStale(RevocationFeed.Stale.FAIL_CLOSED));
    BearerVerifier verifier = verifier(feed, issuer);
    String token = token(issuer);
    verifier.verifyToken(token, List.of());
    status = 503;

    clock.advance(Duration.ofHours(2).minusMillis(1));
    feed.poll();
    verifier.verifyToken(token, List.of());
    clock.advance(Duration.ofMillis(1));

    StaleRevocationsException stale =
        assertThrows(StaleRevocationsException.class, () -> verifier.verifyToken(token, List.of()));
    assertEquals(NOW, stale.fetchedAt().orElseThrow());
    BearerCheck check = BearerCheck.of(verifier, List.of("Bearer " + token), List.of());
    assertEquals(503, ((BearerCheck.Refused) check).status());
    assertEquals(2, feed.staleRefusals());
    assertEquals(1, feed.failedPolls());
    assertEquals(1, warnings(), "once a minute, not once a request");
    assertTrue(log.messages().stream().anyMatch(m -> m.contains("could not be fetched")));
  }

  @Test
  void whenTheIssuerIsBackThenTheNextPollEndsTheRefusals() throws IOException {
    URI issuer = serve();
    publish(EMPTY);
    RevocationFeed feed = built(feedOf(issuer).onStale(RevocationFeed.Stale.FAIL_CLOSED));
    BearerVerifier verifier = verifier(feed, issuer);
    String token = token(issuer);
    status = 503;
    clock.advance(Duration.ofHours(3));
    feed.poll();
    assertThrows(StaleRevocationsException.class, () -> verifier.verifyToken(token, List.of()));

    status = 200;
    feed.poll();

    verifier.verifyToken(token, List.of());
    assertEquals(clock.instant(), feed.lastGoodFetch().orElseThrow());
    assertTrue(log.messages().stream().anyMatch(m -> m.contains("was fetched again")));
  }

  @Test
  void whenWarnAndThePollsFailPastTheMaxStalenessThenTheOldSnapshotServesAndWarnsOnceAMinute()
      throws IOException {
    URI issuer = serve();
    publish(feed(List.of(TOKEN_ID), List.of()));
    RevocationFeed feed = built(feedOf(issuer));
    BearerVerifier verifier = verifier(feed, issuer);
    String other = token(issuer, "another-jti", TestTokens.ISSUED_AT);
    status = 503;
    clock.advance(Duration.ofHours(3));

    verifier.verifyToken(other, List.of());
    verifier.verifyToken(other, List.of());
    assertEquals(
        "token revoked", refusal(verifier, token(issuer)), "the old snapshot still counts");
    assertEquals(1, warnings());
    clock.advance(Duration.ofMinutes(1));
    verifier.verifyToken(other, List.of());

    assertEquals(2, warnings());
    assertEquals(0, feed.staleRefusals());
    assertEquals(Duration.ofHours(3).plusMinutes(1), feed.age());
  }

  @Test
  void whenTheFirstPollFailsAndFailClosedThenTokensGet503UntilOneSucceeds() throws IOException {
    URI issuer = serve();
    status = 503;
    RevocationFeed feed = built(feedOf(issuer).onStale(RevocationFeed.Stale.FAIL_CLOSED));
    BearerVerifier verifier = verifier(feed, issuer);
    String token = token(issuer);

    StaleRevocationsException stale =
        assertThrows(StaleRevocationsException.class, () -> verifier.verifyToken(token, List.of()));
    assertTrue(stale.fetchedAt().isEmpty());
    assertTrue(stale.getMessage().contains("not been fetched yet"), stale.getMessage());
    assertTrue(feed.lastGoodFetch().isEmpty());

    status = 200;
    publish(EMPTY);
    feed.poll();
    verifier.verifyToken(token, List.of());
  }

  @Test
  void whenTheFirstPollFailsAndWarnThenTokensPassAndItWarns() throws IOException {
    URI issuer = serve();
    status = 503;
    RevocationFeed feed = built(feedOf(issuer));

    verifier(feed, issuer).verifyToken(token(issuer), List.of());

    assertEquals(0, feed.size());
    assertTrue(log.messages().stream().anyMatch(m -> m.contains("not been fetched yet")));
  }
}
