package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The cache core alone: a source the test answers, a clock it moves, and an executor that runs in
 * place (or queues, where when a fetch begins matters). No HTTP and no waiting.
 */
class KeySetCacheTest {
  static final URI URI_ = URI.create("https://keys.example/jwks");
  static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  static final Duration INTERVAL = Duration.ofSeconds(60);
  static final Duration MIN_CACHE = Duration.ofSeconds(10);
  static final Duration MAX_CACHE = Duration.ofHours(1);
  static final Duration MAX_STALENESS = Duration.ofHours(24);

  /** The verifier's choices: misses count from miss fetches, no back-off without a set. */
  static final KeySetCache.Policy WAITING =
      new KeySetCache.Policy(INTERVAL, MIN_CACHE, MAX_CACHE, MAX_STALENESS, false, false);

  /** The service's choices for clients' sets: every fetch delays a miss, back-off always. */
  static final KeySetCache.Policy BACKGROUND =
      new KeySetCache.Policy(INTERVAL, MIN_CACHE, MAX_CACHE, MAX_STALENESS, true, true);

  final MutableClock clock = new MutableClock(START);
  final Queue<CompletableFuture<KeySetFetch.Fetched<String>>> answers = new ArrayDeque<>();
  int fetches;

  KeySetCache<String> cache(KeySetCache.Policy policy, Executor executor) {
    return new KeySetCache<>(URI_, this::start, policy, clock, executor);
  }

  CompletableFuture<KeySetFetch.Fetched<String>> start(URI uri) {
    fetches++;
    CompletableFuture<KeySetFetch.Fetched<String>> answer = answers.poll();
    return answer != null ? answer : CompletableFuture.failedFuture(new IOException("no answer"));
  }

  void answer(String set, Optional<Duration> maxAge) {
    answers.add(CompletableFuture.completedFuture(new KeySetFetch.Fetched<>(set, maxAge)));
  }

  void fail(String why) {
    answers.add(CompletableFuture.failedFuture(new IOException(why)));
  }

  @Test
  void whenTheMaxAgeHasPassedThenAFetchIsDueAndNotBefore() {
    KeySetCache<String> cache = cache(WAITING, Runnable::run);
    answer("one", Optional.of(Duration.ofMinutes(5)));
    cache.refresh(clock.instant(), false);

    clock.advance(Duration.ofMinutes(5).minusNanos(1));
    assertSame(cache.held(), cache.refresh(clock.instant(), false).join());
    assertEquals(1, fetches);

    clock.advance(Duration.ofNanos(1));
    answer("two", Optional.empty());
    assertEquals("two", cache.refresh(clock.instant(), false).join().value());
    assertEquals(2, fetches);
  }

  @Test
  void whenTheMaxAgeIsOutOfBoundsThenTheBoundHolds() {
    KeySetCache<String> cache = cache(WAITING, Runnable::run);
    answer("long", Optional.of(Duration.ofDays(30)));
    cache.refresh(clock.instant(), false);
    assertEquals(START.plus(MAX_CACHE), cache.held().nextFetch());

    clock.advance(MAX_CACHE);
    answer("short", Optional.of(Duration.ZERO));
    cache.refresh(clock.instant(), false);
    assertEquals(clock.instant().plus(MIN_CACHE), cache.held().nextFetch());

    clock.advance(MIN_CACHE);
    answer("none", Optional.empty());
    cache.refresh(clock.instant(), false);
    assertEquals(clock.instant().plus(MAX_CACHE), cache.held().nextFetch());
  }

  @Test
  void whenAFetchIsUnderWayThenEveryCallerJoinsItAndOneFetchRuns() {
    KeySetCache<String> cache = cache(WAITING, Runnable::run);
    CompletableFuture<KeySetFetch.Fetched<String>> pending = new CompletableFuture<>();
    answers.add(pending);

    CompletableFuture<KeySetCache.Held<String>> first = cache.refresh(clock.instant(), true);
    CompletableFuture<KeySetCache.Held<String>> second = cache.refresh(clock.instant(), true);
    clock.advance(Duration.ofHours(2));
    CompletableFuture<KeySetCache.Held<String>> third = cache.refresh(clock.instant(), false);

    assertSame(first, second);
    assertSame(first, third);
    assertEquals(1, fetches);
    assertFalse(first.isDone());
    pending.complete(new KeySetFetch.Fetched<>("one", Optional.empty()));
    assertEquals("one", first.join().value());
    assertTrue(cache.underWay().isEmpty());
  }

  @Test
  void whenOnlyMissFetchesCountThenAMissRightAfterTheFirstFetchFetches() {
    KeySetCache<String> cache = cache(WAITING, Runnable::run);
    answer("one", Optional.empty());
    cache.refresh(clock.instant(), false);
    answer("two", Optional.empty());
    answer("three", Optional.empty());

    assertEquals("two", cache.refresh(clock.instant(), true).join().value());
    clock.advance(INTERVAL.minusSeconds(1));
    assertEquals("two", cache.refresh(clock.instant(), true).join().value());
    clock.advance(Duration.ofSeconds(1));
    assertEquals("three", cache.refresh(clock.instant(), true).join().value());
    assertEquals(3, fetches);
  }

  @Test
  void whenEveryFetchCountsThenAMissRightAfterTheFirstFetchFetchesNothing() {
    KeySetCache<String> cache = cache(BACKGROUND, Runnable::run);
    answer("one", Optional.empty());
    cache.refresh(clock.instant(), false);
    answer("two", Optional.empty());

    assertEquals("one", cache.refresh(clock.instant(), true).join().value());
    clock.advance(INTERVAL);
    assertEquals("two", cache.refresh(clock.instant(), true).join().value());
    assertEquals(2, fetches);
  }

  @Test
  void whenFetchesFailThenTheSetServesUntilTheMaxStalenessAndNotAtIt() {
    KeySetCache<String> cache = cache(WAITING, Runnable::run);
    answer("one", Optional.empty());
    cache.refresh(clock.instant(), false);

    clock.advance(MAX_CACHE);
    fail("down");
    KeySetCache.Held<String> after = cache.refresh(clock.instant(), false).join();
    assertEquals("one", after.value());
    assertEquals(START, after.fetchedAt());
    assertEquals("down", after.failure().getMessage());
    assertEquals(clock.instant().plus(INTERVAL), after.nextFetch(), "the next try");

    clock.set(START.plus(MAX_STALENESS).minusNanos(1));
    assertFalse(cache.held().tooOldAt(clock.instant()));
    clock.advance(Duration.ofNanos(1));
    assertTrue(cache.held().tooOldAt(clock.instant()));
  }

  @Test
  void whenTheFirstFetchFailsThenTheWaitingPolicyTriesAgainAtOnce() {
    KeySetCache<String> cache = cache(WAITING, Runnable::run);
    fail("down");
    KeySetCache.Held<String> after = cache.refresh(clock.instant(), false).join();
    assertFalse(after.present());
    assertInstanceOf(IOException.class, after.failure());

    answer("one", Optional.empty());
    assertEquals("one", cache.refresh(clock.instant(), false).join().value());
    assertEquals(2, fetches);
  }

  @Test
  void whenTheFirstFetchFailsThenTheBackgroundPolicyWaitsAnInterval() {
    KeySetCache<String> cache = cache(BACKGROUND, Runnable::run);
    fail("down");
    cache.refresh(clock.instant(), false);
    answer("one", Optional.empty());

    assertFalse(cache.refresh(clock.instant(), true).join().present());
    clock.advance(INTERVAL.minusNanos(1));
    assertFalse(cache.refresh(clock.instant(), true).join().present());
    assertEquals(1, fetches);
    clock.advance(Duration.ofNanos(1));
    assertEquals("one", cache.refresh(clock.instant(), false).join().value());
  }

  @Test
  void whenTheExecutorRefusesThenNoFetchAndTheNextIsAnIntervalAway() {
    KeySetCache<String> cache =
        cache(
            BACKGROUND,
            task -> {
              throw new RejectedExecutionException("full");
            });

    KeySetCache.Held<String> after = cache.refresh(clock.instant(), false).join();

    assertEquals(0, fetches);
    assertFalse(after.present());
    assertNull(after.failure());
    assertEquals(START.plus(INTERVAL), after.nextFetch());
    assertTrue(cache.underWay().isEmpty(), "a later refresh may start");
  }

  @Test
  void whenTheFetchBeginsLaterOnTheExecutorThenTheSetsAgeCountsFromThere() {
    Queue<Runnable> queued = new ArrayDeque<>();
    KeySetCache<String> cache = cache(BACKGROUND, queued::add);
    answer("one", Optional.empty());
    CompletableFuture<KeySetCache.Held<String>> refresh = cache.refresh(clock.instant(), false);
    assertTrue(cache.held().nextFetch().isAfter(clock.instant()), "the attempt is stored at once");

    clock.advance(Duration.ofMinutes(3));
    queued.remove().run();

    assertEquals(clock.instant(), refresh.join().fetchedAt());
    assertEquals(clock.instant().plus(MAX_STALENESS), refresh.join().usableUntil());
  }

  @Test
  void whenTheMaxStalenessWouldOverflowThenTheSetNeverTurnsTooOld() {
    KeySetCache<String> cache =
        cache(
            new KeySetCache.Policy(
                INTERVAL, MIN_CACHE, MAX_CACHE, Duration.ofSeconds(Long.MAX_VALUE), false, false),
            Runnable::run);
    answer("one", Optional.empty());

    KeySetCache.Held<String> held = cache.refresh(clock.instant(), false).join();

    assertEquals(Instant.MAX, held.usableUntil());
    assertFalse(held.tooOldAt(Instant.MAX.minusSeconds(1)));
  }
}
