package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.ISSUED_AT;
import static dev.platform.identity.verify.TestTokens.KID;
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
import dev.platform.identity.key.MutableClock;
import java.io.IOException;
import java.net.URI;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 item 5: a verifier refuses the tokens its issuer's revocation feed lists, on the cold
 * path and on a cache hit, against a real feed on 127.0.0.1. Time is a clock the test moves; polls
 * are made by the test ({@link RevocationFeed#poll}), the feed's own thread waiting an hour.
 */
class RevocationFeedTest {
  static final KeyPair KEYS = TestTokens.rsaKeyPair();
  static final String EMPTY = feed(List.of(), List.of());

  final MutableClock clock = new MutableClock(NOW);
  final List<StubServer.Request> requests = new CopyOnWriteArrayList<>();
  final List<AutoCloseable> closing = new ArrayList<>();
  volatile String body = EMPTY;
  volatile int status = 200;
  volatile String etag = "\"v1\"";
  StubServer server;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable resource : closing) {
      resource.close();
    }
  }

  /** The feed's answer to one poll: 304 when the client holds the current ETag. */
  StubServer.Reply answer(StubServer.Request request) {
    requests.add(request);
    if (status == 200 && etag != null && etag.equals(request.ifNoneMatch())) {
      return new StubServer.Reply(304, Map.of("ETag", etag), "");
    }
    Map<String, String> headers = etag == null ? Map.of() : Map.of("ETag", etag);
    return new StubServer.Reply(status, headers, body);
  }

  URI serve() throws IOException {
    return serve(this::answer);
  }

  URI serve(Function<StubServer.Request, StubServer.Reply> replies) throws IOException {
    server = StubServer.start("/oauth/revocations", replies);
    closing.add(server);
    return server.uri();
  }

  /** A feed of {@code issuer}: polled at build, then only by the test (its thread waits 1 h). */
  RevocationFeed.Builder feedOf(URI issuer) {
    return RevocationFeed.builder()
        .issuer(issuer)
        .clock(clock)
        .refreshInterval(Duration.ofHours(1))
        .maxStaleness(Duration.ofHours(2))
        .connectTimeout(Duration.ofSeconds(1))
        .readTimeout(Duration.ofSeconds(2));
  }

  RevocationFeed built(RevocationFeed.Builder builder) {
    RevocationFeed feed = builder.build();
    closing.add(feed);
    return feed;
  }

  BearerVerifier verifier(RevocationFeed feed, URI issuer) {
    return verifier(feed, issuer, BearerVerifier.builder());
  }

  BearerVerifier verifier(RevocationFeed feed, URI issuer, BearerVerifier.Builder builder) {
    return builder
        .issuer(issuer.toString())
        .clock(clock)
        .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
        .revocations(feed)
        .build();
  }

  /** A token of {@code issuer} as the issuer makes them, valid at NOW. */
  static String token(URI issuer) {
    return TestTokens.signed(serviceAccount().issuer(issuer.toString()), KEYS.getPrivate());
  }

  static String token(URI issuer, String jti, Instant issuedAt) {
    return TestTokens.signed(
        serviceAccount().issuer(issuer.toString()).id(jti).issuedAt(Date.from(issuedAt)),
        KEYS.getPrivate());
  }

  static String feed(List<String> jtis, List<String> accounts) {
    return feedOf(ISSUER_PLACEHOLDER, jtis, accounts);
  }

  static final String ISSUER_PLACEHOLDER = "@ISSUER@";

  static String feedOf(String issuer, List<String> jtis, List<String> accounts) {
    StringBuilder json = new StringBuilder("{\"issuer\":\"" + issuer + "\",\"tokens\":[");
    for (int i = 0; i < jtis.size(); i++) {
      json.append(i == 0 ? "" : ",").append("{\"jti\":\"").append(jtis.get(i));
      json.append("\",\"exp\":1740920400}");
    }
    json.append("],\"accounts\":[").append(String.join(",", accounts)).append("]}");
    return json.toString();
  }

  /** An account entry: tokens of {@code clientId} issued before {@code notBefore} are revoked. */
  static String account(String clientId, Instant notBefore) {
    return "{\"sub_sha256\":\""
        + Revocations.subjectHash(clientId)
        + "\",\"not_before\":"
        + notBefore.getEpochSecond()
        + ",\"until\":"
        + notBefore.plus(Duration.ofHours(25)).getEpochSecond()
        + "}";
  }

  /** Serves {@code json} with the test server's own address as the issuer. */
  void publish(String json) {
    body = json.replace(ISSUER_PLACEHOLDER, server.uri().toString());
  }

  String refusal(BearerVerifier verifier, String token) {
    return assertThrows(
            UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }

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
