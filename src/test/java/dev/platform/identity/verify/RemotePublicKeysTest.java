package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.platform.identity.key.MutableClock;
import io.jsonwebtoken.Jwts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The remote key source against a stub issuer on 127.0.0.1: counts, faults, and the clock. */
class RemotePublicKeysTest {
  static final KeyPair FIRST = TestTokens.rsaKeyPair();
  static final KeyPair SECOND = TestTokens.rsaKeyPair();

  /** The deadline of the stalling tests. */
  static final Duration DEADLINE = Duration.ofMillis(300);

  /** A bound on their calls, loose for a loaded machine; without a deadline they never return. */
  static final Duration BOUND = DEADLINE.multipliedBy(10);

  final MutableClock clock = new MutableClock(TestTokens.NOW);
  volatile String keySet = set(jwk("k1", FIRST));
  volatile int status = 200;
  volatile String cacheControl = "public, max-age=600";
  StubServer stub;

  static String jwk(String kid, KeyPair pair) {
    RSAPublicKey key = (RSAPublicKey) pair.getPublic();
    return "{\"kid\":\""
        + kid
        + "\",\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
        + unsigned(key.getModulus())
        + "\",\"e\":\""
        + unsigned(key.getPublicExponent())
        + "\"}";
  }

  static String unsigned(BigInteger value) {
    byte[] bytes = value.toByteArray();
    int skip = bytes[0] == 0 ? 1 : 0;
    byte[] magnitude = java.util.Arrays.copyOfRange(bytes, skip, bytes.length);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(magnitude);
  }

  static String set(String... jwks) {
    return "{\"keys\":[" + String.join(",", jwks) + "]}";
  }

  @BeforeEach
  void start() throws IOException {
    stub =
        StubServer.start(
            "/api/public-keys",
            request -> new StubServer.Reply(status, Map.of("Cache-Control", cacheControl), keySet));
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  RemotePublicKeys keys() {
    return RemotePublicKeys.builder().issuer(stub.uri()).clock(clock).build();
  }

  @Test
  void whenAKnownKidIsAskedForAgainThenTheCachedSetAnswers() {
    RemotePublicKeys keys = keys();

    for (int i = 0; i < 10; i++) {
      assertTrue(keys.find("k1").isPresent());
    }

    assertEquals(1, stub.requests());
  }

  @Test
  void whenUnknownKidsFloodThenTheSetIsRefetchedAtMostOncePerInterval() {
    RemotePublicKeys keys = keys();
    keys.find("k1");

    for (int i = 0; i < 100; i++) {
      assertEquals(Optional.empty(), keys.find("forged-" + i));
    }
    assertEquals(2, stub.requests());

    clock.advance(Duration.ofSeconds(61));
    keys.find("forged-again");
    assertEquals(3, stub.requests());
  }

  @Test
  void whenTheIssuerRotatesThenTheNewKidIsFetchedWithoutWaitingForTheCache() {
    RemotePublicKeys keys = keys();
    keys.find("k1");
    keySet = set(jwk("k2", SECOND), jwk("k1", FIRST));
    clock.advance(Duration.ofSeconds(61));

    assertEquals(SECOND.getPublic(), keys.find("k2").orElseThrow());
  }

  @Test
  void whenMaxAgePassesThenRefetchedButNeverCachedBeyondAnHour() throws Exception {
    cacheControl = "public, max-age=86400";
    RemotePublicKeys keys = keys();
    keys.find("k1");

    clock.advance(Duration.ofMinutes(59));
    keys.find("k1");
    assertEquals(1, stub.requests());
    clock.advance(Duration.ofMinutes(2));
    keys.find("k1");
    keys.refreshEnded().get(10, TimeUnit.SECONDS);
    assertEquals(2, stub.requests());
  }

  /**
   * The 10 s floor holds for the integrator's longest cache time too: a maximum of zero (or less)
   * must not make every call fetch the set again, which would turn each request into a fetch.
   */
  @Test
  void whenTheLongestCacheTimeIsBelowTenSecondsThenTheSetIsStillKeptTenSeconds() throws Exception {
    cacheControl = "public, max-age=600";
    RemotePublicKeys keys =
        RemotePublicKeys.builder()
            .issuer(stub.uri())
            .clock(clock)
            .maxCacheTime(Duration.ZERO)
            .build();

    for (int i = 0; i < 10; i++) {
      keys.find("k1");
      keys.refreshEnded().get(10, TimeUnit.SECONDS);
    }
    clock.advance(Duration.ofSeconds(9));
    keys.find("k1");
    keys.refreshEnded().get(10, TimeUnit.SECONDS);
    assertEquals(1, stub.requests());

    clock.advance(Duration.ofSeconds(1));
    keys.find("k1");
    keys.refreshEnded().get(10, TimeUnit.SECONDS);
    assertEquals(2, stub.requests());
  }

  @Test
  void whenMaxAgeHasMoreDigitsThanALongThenTheSetIsKeptForAnHourNotRefused() throws Exception {
    cacheControl = "public, max-age=99999999999999999999";
    RemotePublicKeys keys = keys();

    assertEquals(FIRST.getPublic(), keys.find("k1").orElseThrow());
    clock.advance(Duration.ofMinutes(61));
    keys.find("k1");
    keys.refreshEnded().get(10, TimeUnit.SECONDS);
    assertEquals(2, stub.requests());
  }

  @Test
  void whenTwoDifferentKeysShareAKidThenNeitherIsTrustedAndTheOtherKidsServe() {
    keySet = set(jwk("k1", FIRST), jwk("k2", SECOND), jwk("k1", SECOND), jwk("k2", SECOND));
    RemotePublicKeys keys = keys();

    assertEquals(Optional.empty(), keys.find("k1"));
    // The same key listed twice is one key.
    assertEquals(SECOND.getPublic(), keys.find("k2").orElseThrow());
  }

  @Test
  void whenTheIssuerIsDownThenTheCachedKeysKeepVerifying() throws Exception {
    RemotePublicKeys keys = keys();
    keys.find("k1");
    status = 503;
    clock.advance(Duration.ofHours(2));

    assertTrue(keys.find("k1").isPresent());
    keys.refreshEnded().get(10, TimeUnit.SECONDS);
    assertTrue(keys.find("k1").isPresent());
    assertEquals(2, stub.requests(), "one failed try, then the refetch interval");
    String token =
        TestTokens.serviceAccount()
            .header()
            .keyId("k1")
            .and()
            .expiration(java.util.Date.from(clock.instant().plus(Duration.ofHours(1))))
            .issuedAt(java.util.Date.from(clock.instant()))
            .signWith(FIRST.getPrivate(), Jwts.SIG.RS256)
            .compact();
    BearerVerifier verifier =
        BearerVerifier.builder().issuer(TestTokens.ISSUER).keyLocator(keys).clock(clock).build();
    assertEquals(TestTokens.CLIENT_ID, verifier.verifyToken(token, List.of()).clientId());
  }

  @Test
  void whenTheIssuerWasNeverReachedThenAServerSideFailureNotAVerdict() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    RemotePublicKeys keys =
        RemotePublicKeys.builder()
            .issuer(URI.create("http://127.0.0.1:" + closed))
            .connectTimeout(Duration.ofSeconds(1))
            .clock(clock)
            .build();

    assertThrows(UncheckedIOException.class, () -> keys.find("k1"));
  }

  @Test
  void whenTheHttpClientFollowsRedirectsThenTheBuildIsRefused() {
    java.net.http.HttpClient following =
        java.net.http.HttpClient.newBuilder()
            .followRedirects(java.net.http.HttpClient.Redirect.NORMAL)
            .build();

    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> RemotePublicKeys.builder().issuer(stub.uri()).httpClient(following).build());

    assertTrue(refused.getMessage().contains("follows redirects"), refused.getMessage());
  }

  @Test
  void whenTheSetIsTooLargeOrNotAKeySetThenItIsRefused() {
    keySet = set(jwk("k1", FIRST)) + " ".repeat(256 * 1024);
    assertThrows(UncheckedIOException.class, () -> keys().find("k1"));

    keySet = "{\"nope\":[]}";
    assertThrows(UncheckedIOException.class, () -> keys().find("k1"));
  }

  @Test
  void whenOtherKeyTypesAreListedThenOnlyRs256SignatureKeysAreUsed() {
    keySet =
        set(
            jwk("k1", FIRST),
            jwk("enc", SECOND).replace("\"use\":\"sig\"", "\"use\":\"enc\""),
            jwk("ps", SECOND).replace("RS256", "PS256"));
    RemotePublicKeys keys = keys();

    assertTrue(keys.find("k1").isPresent());
    assertTrue(keys.find("enc").isEmpty());
    assertTrue(keys.find("ps").isEmpty());
  }

  @Test
  void whenFiftyCallersMissAtOnceThenOneFetchServesThemAll() throws Exception {
    RemotePublicKeys keys = keys();
    keys.find("k1");
    keySet = set(jwk("k2", SECOND), jwk("k1", FIRST));
    clock.advance(Duration.ofSeconds(61));
    stub.hold();
    CountDownLatch started = new CountDownLatch(50);
    ExecutorService pool = Executors.newFixedThreadPool(50);
    List<CompletableFuture<Optional<java.security.PublicKey>>> callers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      callers.add(
          CompletableFuture.supplyAsync(
              () -> {
                started.countDown();
                return keys.find("k2");
              },
              pool));
    }
    assertTrue(started.await(10, TimeUnit.SECONDS));
    assertTrue(stub.awaitArrival(Duration.ofSeconds(10)), "the refetch reached the stub");
    stub.release();

    for (CompletableFuture<Optional<java.security.PublicKey>> caller : callers) {
      assertTrue(caller.get(10, TimeUnit.SECONDS).isPresent());
    }
    pool.shutdown();
    assertEquals(2, stub.requests());
  }

  @Test
  void whenTheSetIsLargerThan64KiBButWithin256KiBThenItIsAccepted() {
    keySet = set(jwk("k1", FIRST)) + " ".repeat(200 * 1024);

    assertEquals(Optional.of(FIRST.getPublic()), keys().find("k1"));
  }

  @Test
  void whenSomeEntriesCannotBeParsedThenTheyAreSkippedAndTheOthersServe() {
    keySet =
        set(
            jwk("ec", SECOND).replace("\"kty\":\"RSA\"", "\"kty\":\"EC\""),
            jwk("bad-n", SECOND).replaceFirst("\"n\":\"[^\"]*\"", "\"n\":\"not base64url!\""),
            jwk("bad-e", SECOND).replaceFirst("\"e\":\"[^\"]*\"", "\"e\":\"%%\""),
            jwk("tiny-n", SECOND).replaceFirst("\"n\":\"[^\"]*\"", "\"n\":\"AQAB\""),
            jwk("", SECOND).replace("\"kid\":\"\",", ""),
            "42",
            jwk("k1", FIRST));
    RemotePublicKeys keys = keys();

    assertEquals(Optional.of(FIRST.getPublic()), keys.find("k1"));
    for (String skipped : List.of("ec", "bad-n", "bad-e", "tiny-n")) {
      assertEquals(Optional.empty(), keys.find(skipped), skipped);
    }
  }

  static Stream<Arguments> failedFetches() {
    String k2 = jwk("k2", SECOND);
    return Stream.of(
        arguments("503", 503, set(k2)),
        arguments("not JSON", 200, "<html>"),
        arguments("no keys array", 200, "{\"nope\":[]}"),
        arguments("an empty set", 200, set()),
        arguments("no usable key", 200, set(k2.replace("RS256", "PS256"))),
        arguments("over 256 KiB", 200, set(k2) + " ".repeat(256 * 1024)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failedFetches")
  void whenARefreshFailsThenTheLastGoodSetKeepsServing(String failure, int answer, String body) {
    RemotePublicKeys keys = keys();
    keys.find("k1");
    status = answer;
    keySet = body;
    clock.advance(Duration.ofMinutes(11));

    assertEquals(Optional.empty(), keys.find("k2"), "waited for the refresh, which failed");
    assertEquals(Optional.of(FIRST.getPublic()), keys.find("k1"));
  }

  static StallingServer.Reply goodSet() {
    return StallingServer.Reply.complete(
        200, "Cache-Control: public, max-age=600\r\n", set(jwk("k1", FIRST)));
  }

  static StallingServer.Reply stalledSet() {
    return StallingServer.Reply.stalling(200, 4096, "{\"keys\":[");
  }

  RemotePublicKeys keys(StallingServer stub, Duration deadline) {
    return RemotePublicKeys.builder().issuer(stub.uri()).readTimeout(deadline).clock(clock).build();
  }

  @Test
  void whenTheIssuerStallsMidBodyThenTheFirstFetchFailsByTheDeadline() throws Exception {
    try (StallingServer stub = StallingServer.start(n -> stalledSet())) {
      RemotePublicKeys keys = keys(stub, DEADLINE);

      UncheckedIOException failure =
          assertTimeoutPreemptively(
              BOUND, () -> assertThrows(UncheckedIOException.class, () -> keys.find("k1")));

      assertInstanceOf(HttpTimeoutException.class, failure.getCause());
      assertTrue(stub.awaitHangUp(BOUND), "the stalled connection is closed, not left open");
    }
  }

  @Test
  void whenARefreshStallsThenKnownKidsAreAnsweredFromTheLastGoodSetWithoutWaiting()
      throws Exception {
    try (StallingServer stub = StallingServer.start(n -> n == 1 ? goodSet() : stalledSet())) {
      // A deadline past the test's end: the refresh is still stalled when the answers come.
      RemotePublicKeys keys = keys(stub, Duration.ofSeconds(30));
      keys.find("k1");
      clock.advance(Duration.ofMinutes(11));

      Optional<PublicKey> staleCaller = assertTimeoutPreemptively(BOUND, () -> keys.find("k1"));
      assertTrue(stub.awaitStall(BOUND), "the refresh is in flight, stalled mid-body");
      Optional<PublicKey> nextCaller = assertTimeoutPreemptively(BOUND, () -> keys.find("k1"));

      assertEquals(Optional.of(FIRST.getPublic()), staleCaller);
      assertEquals(Optional.of(FIRST.getPublic()), nextCaller);
      assertFalse(keys.refreshEnded().isDone(), "answered while the refresh still stalls");
      assertEquals(2, stub.requests(), "one refresh at a time");
    }
  }

  @Test
  void whenAnUnknownKidMeetsAStalledRefreshThenItWaitsAtMostTheDeadline() throws Exception {
    try (StallingServer stub = StallingServer.start(n -> n == 1 ? goodSet() : stalledSet())) {
      RemotePublicKeys keys = keys(stub, DEADLINE);
      keys.find("k1");
      clock.advance(Duration.ofSeconds(61));

      Optional<PublicKey> unknown = assertTimeoutPreemptively(BOUND, () -> keys.find("k2"));

      assertEquals(Optional.empty(), unknown);
      assertEquals(Optional.of(FIRST.getPublic()), keys.find("k1"), "the last good set serves");
      assertTrue(stub.awaitHangUp(BOUND), "the stalled connection is closed, not left open");
    }
  }
}
