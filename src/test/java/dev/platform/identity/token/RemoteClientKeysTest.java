package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-URI cache of clients' key sets over the real fetch, a stub HTTPS server and the clock.
 */
class RemoteClientKeysTest {
  static final String FIRST = "{\"keys\":[{\"kid\":\"first\"}]}";
  static final String SECOND = "{\"keys\":[{\"kid\":\"second\"}]}";
  static final String THIRD = "{\"keys\":[{\"kid\":\"third\"}]}";
  static final Duration CACHE_TIME = Duration.ofMinutes(5);
  static final Duration REFETCH_INTERVAL = Duration.ofSeconds(60);

  final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
  HttpsStub stub;
  URI jwks;
  RemoteClientKeys<String> keys;

  @BeforeEach
  void start() throws Exception {
    stub = HttpsStub.start();
    stub.answer("/jwks", HttpsStub.whole(200, FIRST));
    jwks = stub.uri("/jwks");
    keys = new RemoteClientKeys<>(ClientKeySetFetchTest.toStub().build(), clock);
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

  @Test
  void whenTheServerFailsThenTheLastGoodSetKeepsServing() {
    keys.get(jwks, false);
    stub.answer("/jwks", HttpsStub.whole(500, "down"));
    clock.advance(CACHE_TIME);

    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(FIRST, keys.get(jwks, false)); // no retry within a refetch interval
    assertEquals(2, stub.requests("/jwks"));
    assertEquals(FIRST, keys.get(jwks, true));
    assertEquals(3, stub.requests("/jwks"));

    stub.answer("/jwks", HttpsStub.whole(200, SECOND));
    clock.advance(REFETCH_INTERVAL);
    assertEquals(SECOND, keys.get(jwks, false));
    assertEquals(4, stub.requests("/jwks"));
  }

  @Test
  void whenNoSetWasEverFetchedThenUnavailableAndRetriedOnlyAfterAnInterval() {
    stub.answer("/jwks", HttpsStub.whole(500, "down"));

    ClientKeysUnavailableException failed =
        assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));

    assertEquals(
        "the keys at jwks_uri " + jwks + " cannot be fetched: " + jwks + " answered 500",
        failed.getMessage());
    assertThrows(ClientKeysUnavailableException.class, () -> keys.get(jwks, false));
    assertEquals(1, stub.requests("/jwks"));

    stub.answer("/jwks", HttpsStub.whole(200, FIRST));
    clock.advance(REFETCH_INTERVAL);
    assertEquals(FIRST, keys.get(jwks, false));
    assertEquals(2, stub.requests("/jwks"));
  }

  @Test
  void whenTheUriIsPrivateThenUnavailableWithTheReason() {
    keys =
        new RemoteClientKeys<>(ClientKeySetFetchTest.toStub().allowPrivate(false).build(), clock);

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
        new RemoteClientKeys<>(
            ClientKeySetFetchTest.toStub().build(), clock, CACHE_TIME, REFETCH_INTERVAL, 2);

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

  @Test
  void whenManyCallersAskAtOnceThenOneFetchServesThemAll() throws Exception {
    int callers = 8;
    stub.hold();
    ExecutorService threads = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch ready = new CountDownLatch(callers);
      List<Future<String>> answers = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        answers.add(
            threads.submit(
                () -> {
                  ready.countDown();
                  return keys.get(jwks, true);
                }));
      }
      assertTrue(ready.await(5, TimeUnit.SECONDS));
      assertTrue(stub.awaitArrival(Duration.ofSeconds(5)));
      stub.release();

      for (Future<String> answer : answers) {
        assertEquals(FIRST, answer.get(5, TimeUnit.SECONDS));
      }
      assertEquals(1, stub.requests("/jwks"));
    } finally {
      threads.shutdownNow();
    }
  }
}
