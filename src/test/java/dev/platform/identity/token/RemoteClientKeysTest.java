package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-URI cache of clients' key sets over the real fetch, a stub HTTPS server and a clock the
 * test moves. Most tests fetch on an executor that runs in place, so a scheduled fetch has ended
 * when the call returns; the tests of issue 35 fetch on a real thread that the stub holds.
 */
class RemoteClientKeysTest {
  static final String FIRST = "{\"keys\":[{\"kid\":\"first\"}]}";
  static final String SECOND = "{\"keys\":[{\"kid\":\"second\"}]}";
  static final String THIRD = "{\"keys\":[{\"kid\":\"third\"}]}";
  static final Duration CACHE_TIME = Duration.ofMinutes(5);
  static final Duration REFETCH_INTERVAL = Duration.ofSeconds(60);
  static final Duration MAX_AGE = Duration.ofHours(1);
  static final RemoteClientKeys.Times TIMES =
      new RemoteClientKeys.Times(CACHE_TIME, REFETCH_INTERVAL, MAX_AGE, 10_000);

  /** Fast for a test that waits for none of it; generous for a loaded machine. */
  static final Duration AT_ONCE = Duration.ofSeconds(2);

  final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
  final List<String> expired = new CopyOnWriteArrayList<>();
  HttpsStub stub;
  URI jwks;
  RemoteClientKeys<String> keys;

  @BeforeEach
  void start() throws Exception {
    stub = HttpsStub.start();
    stub.answer("/jwks", HttpsStub.whole(200, FIRST));
    jwks = stub.uri("/jwks");
    keys = cache(ClientKeySetFetchTest.toStub(stub).build(), Runnable::run, TIMES);
  }

  RemoteClientKeys<String> cache(
      ClientKeySetFetch<String> fetch, Executor executor, RemoteClientKeys.Times times) {
    return new RemoteClientKeys<>(
        fetch, clock, executor, times, (uri, fetchedAt) -> expired.add(uri + " " + fetchedAt));
  }

  @AfterEach
  void close() {
    stub.close();
  }

  @Test
  void whenTheSetIsFreshThenItIsServedWithoutAFetch() {
    assertEquals(FIRST, keys.get(jwks, false));
    stub.answer("/jwks", HttpsStub.whole(200, SECOND));
    clock.advance(CACHE_TIME.minusSeconds(1));

    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(1, stub.requests("/jwks"));
  }

  @Test
  void whenTheCacheTimeHasPassedThenTheSetIsFetchedAgain() {
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(200, SECOND));
    clock.advance(CACHE_TIME);

    assertEquals(SECOND, keys.get(jwks, false));
    assertEquals(SECOND, keys.get(jwks, false));
    assertEquals(2, stub.requests("/jwks"));
  }

  @Test
  void whenAMissingKeyForcesARefetchThenAtMostOncePerInterval() {
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(200, SECOND));
    clock.advance(REFETCH_INTERVAL);

    assertEquals(SECOND, keys.get(jwks, true));
    stub.answer("/jwks", HttpsStub.whole(200, THIRD));
    assertEquals(SECOND, keys.get(jwks, true));
    clock.advance(REFETCH_INTERVAL.minusSeconds(1));
    assertEquals(SECOND, keys.get(jwks, true));
    assertEquals(2, stub.requests("/jwks"));

    clock.advance(Duration.ofSeconds(1));
    assertEquals(THIRD, keys.get(jwks, true));
    assertEquals(3, stub.requests("/jwks"));
  }

  /**
   * The first fetch counts as the minute's attempt: a forged kid right after it fetches nothing.
   */
  @Test
  void whenAMissingKeyForcesARefetchRightAfterTheFirstFetchThenNone() {
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(200, SECOND));

    assertEquals(FIRST, keys.get(jwks, true));
    assertEquals(1, stub.requests("/jwks"));
  }

  @Test
  void whenTheServerFailsThenTheLastGoodSetKeepsServing() {
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(500, "down"));
    clock.advance(CACHE_TIME);

    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(FIRST, keys.get(jwks, false)); // no retry within a refetch interval
    assertEquals(FIRST, keys.get(jwks, true));
    assertEquals(2, stub.requests("/jwks"));

    stub.answer("/jwks", HttpsStub.whole(200, SECOND));
    clock.advance(REFETCH_INTERVAL);
    assertEquals(SECOND, keys.get(jwks, false));
    assertEquals(3, stub.requests("/jwks"));
  }

  @Test
  void whenNoSetWasEverFetchedThenUnavailableAndRetriedOnlyAfterAnInterval() {
    stub.answer("/jwks", HttpsStub.whole(500, "down"));

    ClientKeysUnavailableException failed =
        assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));

    assertEquals(
        "the keys at jwks_uri " + jwks + " cannot be fetched: " + jwks + " answered 500",
        failed.getMessage());
    assertFalse(failed.expired());
    assertEquals(ClientKeysUnavailableException.NOT_YET, failed.description());
    assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, true));
    assertEquals(1, stub.requests("/jwks"));

    stub.answer("/jwks", HttpsStub.whole(200, FIRST));
    clock.advance(REFETCH_INTERVAL);
    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(2, stub.requests("/jwks"));
  }

  @Test
  void whenTheUriIsPrivateThenUnavailableWithTheReason() {
    keys =
        cache(ClientKeySetFetchTest.toStub(stub).allowPrivate(false).build(), Runnable::run, TIMES);

    ClientKeysUnavailableException failed =
        assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));

    assertTrue(failed.getMessage().contains("only to public addresses"), failed.getMessage());
    assertEquals(0, stub.requests("/jwks"));
  }

  @Test
  void whenMoreUrisThanTheBoundThenTheLeastRecentlyFetchedLeaves() {
    for (String path : List.of("/a", "/b", "/c")) {
      stub.answer(path, HttpsStub.whole(200, FIRST));
    }
    keys =
        cache(
            ClientKeySetFetchTest.toStub(stub).build(),
            Runnable::run,
            new RemoteClientKeys.Times(CACHE_TIME, REFETCH_INTERVAL, MAX_AGE, 2));

    keys.get(stub.uri("/a"), false);
    keys.get(stub.uri("/b"), false);
    keys.get(stub.uri("/c"), false); // /a leaves
    keys.get(stub.uri("/a"), false); // fetched again; /b leaves
    keys.get(stub.uri("/c"), false);

    assertEquals(2, stub.requests("/a"));
    assertEquals(1, stub.requests("/b"));
    assertEquals(1, stub.requests("/c"));
    keys.get(stub.uri("/b"), false);
    assertEquals(2, stub.requests("/b"));
  }

  /**
   * Issue 35: a host that does not answer holds a background thread, not the caller: every call
   * fails at once while the fetch hangs, and all of them together start one fetch.
   */
  @Test
  void whenTheFetchHangsThenCallsFailAtOnceAndOneFetchIsUnderWay() throws Exception {
    stub.hold();
    ExecutorService background = Executors.newSingleThreadExecutor();
    try {
      keys = cache(ClientKeySetFetchTest.toStub(stub).build(), background, TIMES);

      assertTimeoutPreemptively(
          AT_ONCE,
          () -> {
            for (int i = 0; i < 20; i++) {
              ClientKeysUnavailableException failed =
                  assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, true));
              assertEquals(ClientKeysUnavailableException.NOT_YET, failed.description());
            }
          });
      assertTrue(stub.awaitArrival(Duration.ofSeconds(10)));
      stub.release();
      background.shutdown();
      assertTrue(background.awaitTermination(10, TimeUnit.SECONDS));

      assertEquals(FIRST, keys.get(jwks, false));
      assertEquals(1, stub.requests("/jwks"));
    } finally {
      background.shutdownNow();
    }
  }

  /** Issue 35: the DNS look-up of the address check runs on the background thread too. */
  @Test
  void whenTheLookUpHangsThenTheCallerDoesNotWait() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    CountDownLatch asked = new CountDownLatch(1);
    ClientKeySetFetch.Resolver slow =
        host -> {
          asked.countDown();
          try {
            answer.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return new InetAddress[] {InetAddress.getByName("8.8.8.8")};
        };
    ExecutorService background = Executors.newSingleThreadExecutor();
    try {
      keys =
          cache(
              ClientKeySetFetchTest.toStub(stub).allowPrivate(false).resolver(slow).build(),
              background,
              TIMES);

      assertTimeoutPreemptively(
          AT_ONCE,
          () -> assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false)));
      assertTrue(asked.await(10, TimeUnit.SECONDS), "the look-up ran, on the background thread");
    } finally {
      answer.countDown();
      background.shutdownNow();
    }
  }

  /** Issue 36 item 1: a host that stays down cannot keep a set (and a removed key) forever. */
  @Test
  void whenTheHostStaysDownThenTheLastSetIsRefusedOnceItPassesTheMaxAge() {
    Instant fetchedAt = clock.instant();
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(500, "down"));

    for (int step = 1; step < 12; step++) {
      clock.advance(CACHE_TIME);
      keys.refreshDue();
      assertEquals(FIRST, keys.get(jwks, false), "at " + CACHE_TIME.multipliedBy(step));
    }
    clock.advance(CACHE_TIME);
    keys.refreshDue();

    ClientKeysUnavailableException failed =
        assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));
    assertTrue(failed.expired());
    assertEquals(ClientKeysUnavailableException.TOO_OLD, failed.description());
    assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));
    assertEquals(List.of(jwks + " " + fetchedAt), expired, "said once");
    assertEquals(13, stub.requests("/jwks"));

    stub.answer("/jwks", HttpsStub.whole(200, SECOND));
    clock.advance(REFETCH_INTERVAL);
    assertEquals(SECOND, keys.get(jwks, false));
  }

  @Test
  void whenNobodyAsksThenRefreshDueStillRefreshesTheSetsInUse() {
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(200, SECOND));

    clock.advance(CACHE_TIME.minusSeconds(1));
    keys.refreshDue();
    assertEquals(1, stub.requests("/jwks"));
    clock.advance(Duration.ofSeconds(1));
    keys.refreshDue();
    assertEquals(2, stub.requests("/jwks"));

    assertEquals(SECOND, keys.get(jwks, false));
    assertEquals(2, stub.requests("/jwks"));
  }

  @Test
  void whenAUriWasNotAskedForInADayThenItIsDroppedNotRefreshed() {
    keys.get(jwks, false);
    clock.advance(RemoteClientKeys.IDLE_LIMIT.plusSeconds(1));

    keys.refreshDue();
    keys.refreshDue();

    assertEquals(1, stub.requests("/jwks"));
  }

  @Test
  void whenAUriIsWarmedThenItsSetIsFetchedBeforeAnyCaller() {
    keys.warm(jwks);
    keys.warm(jwks);

    assertEquals(1, stub.requests("/jwks"));
    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(1, stub.requests("/jwks"));
  }

  @Test
  void whenTheExecutorRefusesAFetchThenTheCallerFailsAtOnce() {
    keys =
        cache(
            ClientKeySetFetchTest.toStub(stub).build(),
            task -> {
              throw new java.util.concurrent.RejectedExecutionException("full");
            },
            TIMES);

    assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));
    assertEquals(0, stub.requests("/jwks"));
  }
}
