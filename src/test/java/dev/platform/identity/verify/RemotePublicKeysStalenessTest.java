package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.key.MutableClock;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 36 item 2: the last good key set answers for at most the maximum staleness after its fetch,
 * against a real issuer on 127.0.0.1 that starts failing; time is a clock the test moves.
 */
class RemotePublicKeysStalenessTest {
  static final String KEY_SET =
      RemotePublicKeysTest.set(RemotePublicKeysTest.jwk("k1", RemotePublicKeysTest.FIRST));

  final MutableClock clock = new MutableClock(TestTokens.NOW);
  final LogCapture log = LogCapture.of(RemotePublicKeys.class.getName());
  volatile int status = 200;
  StubServer issuer;
  URI issuerUri;

  @BeforeEach
  void start() throws IOException {
    issuer = startIssuer();
    issuerUri = issuer.uri();
  }

  StubServer startIssuer() throws IOException {
    return StubServer.start(
        "/api/public-keys",
        request -> new StubServer.Reply(status, Map.of("Cache-Control", "max-age=3600"), KEY_SET));
  }

  @AfterEach
  void stop() {
    log.close();
    issuer.close();
  }

  RemotePublicKeys keys() {
    return RemotePublicKeys.builder()
        .issuer(issuerUri)
        .clock(clock)
        .connectTimeout(Duration.ofSeconds(1))
        .build();
  }

  /** The issuer stops answering well: 503s, or nothing listens any more. */
  void fail(String how) {
    if (how.equals("503")) {
      status = 503;
    } else {
      issuer.close();
    }
  }

  /** A refresh started in the background by a stale set has ended. */
  static void settled(RemotePublicKeys keys) throws Exception {
    keys.refreshEnded().get(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"503", "closed"})
  void whenRefreshesFailPastTheMaxStalenessThenFindFailsNamingTheAge(String how) throws Exception {
    RemotePublicKeys keys = keys();
    assertTrue(keys.find("k1").isPresent());
    fail(how);

    clock.advance(Duration.ofHours(23));
    assertTrue(keys.find("k1").isPresent(), "stale but within 24 h: still answers");
    settled(keys);
    clock.advance(Duration.ofMinutes(59).plusSeconds(59));
    assertTrue(keys.find("k1").isPresent(), "at 23:59:59");
    settled(keys);
    clock.advance(Duration.ofSeconds(2));

    StaleKeySetException stale = assertThrows(StaleKeySetException.class, () -> keys.find("k1"));
    assertEquals(TestTokens.NOW, stale.fetchedAt());
    assertTrue(stale.getMessage().contains("maximum staleness of PT24H"), stale.getMessage());
    assertThrows(StaleKeySetException.class, () -> keys.find("unknown"));
    assertEquals(2, keys.staleRefusals());
    assertEquals(TestTokens.NOW, keys.lastGoodFetch().orElseThrow());
  }

  @Test
  void whenTheIssuerIsBackThenTheNextRefreshAnswersAgain() throws Exception {
    RemotePublicKeys keys = keys();
    keys.find("k1");
    fail("503");
    clock.advance(Duration.ofHours(25));
    assertThrows(StaleKeySetException.class, () -> keys.find("k1"));
    int tries = issuer.requests();

    assertThrows(StaleKeySetException.class, () -> keys.find("k1"));
    assertEquals(tries, issuer.requests(), "no new try within the refetch interval");
    status = 200;
    clock.advance(Duration.ofSeconds(61));

    assertTrue(keys.find("k1").isPresent(), "the caller waited for the refresh and it worked");
    assertEquals(clock.instant(), keys.lastGoodFetch().orElseThrow());
    assertTrue(log.messages().stream().anyMatch(m -> m.contains("was fetched again")));
  }

  @Test
  void whenManyRequestsAreRefusedThenOneWarningAMinuteAndEveryOneCounted() throws Exception {
    RemotePublicKeys keys = keys();
    keys.find("k1");
    fail("503");
    clock.advance(Duration.ofHours(25));

    for (int i = 0; i < 100; i++) {
      assertThrows(StaleKeySetException.class, () -> keys.find("k1"));
      clock.advance(Duration.ofMillis(500)); // 50 s in all
    }
    assertEquals(1, warnings(), log.messages().toString());
    clock.advance(Duration.ofSeconds(11));
    assertThrows(StaleKeySetException.class, () -> keys.find("k1"));

    assertEquals(2, warnings(), log.messages().toString());
    assertEquals(101, keys.staleRefusals());
    String first = log.messages().get(0);
    assertTrue(first.contains(issuerUri + "/api/public-keys"), first);
    assertTrue(first.contains("503"), first);
  }

  long warnings() {
    return log.messages().stream().filter(m -> m.contains("maximum staleness")).count();
  }

  @Test
  void whenAVerifierUsesAStaleSetThenItsCheckAnswers503AndNot401() throws Exception {
    RemotePublicKeys keys = keys();
    String header =
        "Bearer "
            + TestTokens.signed(
                TestTokens.serviceAccount()
                    .header()
                    .keyId("k1")
                    .and()
                    .issuedAt(java.util.Date.from(clock.instant()))
                    .expiration(java.util.Date.from(clock.instant().plus(Duration.ofHours(30)))),
                RemotePublicKeysTest.FIRST.getPrivate());
    BearerVerifier lenient =
        BearerVerifier.builder()
            .issuer(TestTokens.ISSUER)
            .clock(clock)
            .keyLocator(keys)
            .maxTokenLifetime(Duration.ofHours(31))
            .build();
    assertInstanceOf(BearerCheck.Passed.class, BearerCheck.of(lenient, List.of(header), List.of()));
    fail("503");
    clock.advance(Duration.ofHours(25));

    BearerCheck.Refused refused =
        assertInstanceOf(
            BearerCheck.Refused.class, BearerCheck.of(lenient, List.of(header), List.of()));

    assertEquals(503, refused.status(), "the cached verification is not served either");
    assertEquals(null, refused.headers().get("WWW-Authenticate"));
  }

  @Test
  void whenTheMaxStalenessIsSetThenItIsTheLimit() throws Exception {
    RemotePublicKeys keys =
        RemotePublicKeys.builder()
            .issuer(issuerUri)
            .clock(clock)
            .maxStaleness(Duration.ofHours(2))
            .build();
    keys.find("k1");
    fail("503");
    clock.advance(Duration.ofHours(1).plusMinutes(30));
    assertTrue(keys.find("k1").isPresent());
    settled(keys);
    clock.advance(Duration.ofMinutes(31));

    assertThrows(StaleKeySetException.class, () -> keys.find("k1"));
  }

  @Test
  void whenTheMaxStalenessIsNotLongerThanTheCacheTimeThenTheBuildIsRefused() {
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () ->
                RemotePublicKeys.builder()
                    .issuer(issuerUri)
                    .maxStaleness(Duration.ofMinutes(30))
                    .build());

    assertTrue(refused.getMessage().contains("maximum staleness"), refused.getMessage());
    RemotePublicKeys.builder()
        .issuer(issuerUri)
        .maxCacheTime(Duration.ofMinutes(10))
        .maxStaleness(Duration.ofMinutes(30))
        .build();
  }

  @Test
  void whenTheDefaultIsReadThenItIsADay() {
    assertEquals(Duration.ofHours(24), RemotePublicKeys.DEFAULT_MAX_STALENESS);
    assertTrue(Instant.MIN.plus(RemotePublicKeys.DEFAULT_MAX_STALENESS).isAfter(Instant.MIN));
  }
}
