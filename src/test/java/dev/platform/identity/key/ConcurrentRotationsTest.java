package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: operators' rotations at the same moment, on two nodes of one database. Before the lock,
 * the loser's retry withdrew the winner's key, which had already signed, as if it were pending.
 */
class ConcurrentRotationsTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final StepClock clock = new StepClock(START);
  private final Settings settings = TestNodes.settings(Map.of("identity/maxPublishedKeys", "30"));
  private final String database = TestNodes.newDatabase();
  private final Set<String> signedWith = ConcurrentHashMap.newKeySet();
  private Node one;
  private Node two;

  @BeforeEach
  void startNodes() {
    one = TestNodes.node(database, settings, clock);
    two = TestNodes.node(database, settings, clock);
    one.rotation().rotateIfDue();
    two.ring().refresh();
  }

  @AfterEach
  void stopNodes() {
    one.close();
    two.close();
  }

  @Test
  void whenTwoImmediateRotationsRaceThenBothKeysStayListedForTheirRetention() throws Exception {
    List<SigningKey> rotated = new ArrayList<>();
    for (int round = 0; round < 5; round++) { // which one reads the clock first is up to chance
      rotated.addAll(race(List.of(true, true)));
    }

    assertKeptListed(rotated);
  }

  @Test
  void whenEightRotationsRaceThenEveryKeyThatSignedStaysListedForItsRetention() throws Exception {
    List<SigningKey> rotated = race(List.of(true, false, true, true, false, true, false, true));

    assertKeptListed(rotated);
  }

  @Test
  void whenFourRevocationsOfTheSigningKeyRaceThenOneSucceedsAndOneSuccessorIsMade()
      throws Exception {
    String kid = one.ring().current().kid();
    CyclicBarrier barrier = new CyclicBarrier(4);
    List<Callable<Boolean>> revocations = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Node node = i % 2 == 0 ? one : two;
      revocations.add(
          () -> {
            barrier.await();
            try {
              return node.rotation().revoke(kid).isPresent();
            } catch (AlreadyRevokedException e) {
              return false;
            }
          });
    }
    ExecutorService threads = Executors.newFixedThreadPool(4);
    int succeeded = 0;
    try {
      for (Future<Boolean> revoked : threads.invokeAll(revocations)) {
        succeeded += revoked.get() ? 1 : 0;
      }
    } finally {
      threads.shutdownNow();
    }

    assertEquals(1, succeeded, "one revocation wins, the others are told it is revoked already");
    assertEquals(2, one.keys().all().size(), "the revoked key and one successor");
  }

  /** Runs one rotation per flag on alternate nodes at once, while both nodes keep signing. */
  List<SigningKey> race(List<Boolean> immediate) throws Exception {
    CyclicBarrier barrier = new CyclicBarrier(immediate.size());
    List<Callable<SigningKey>> rotations = new ArrayList<>();
    for (int i = 0; i < immediate.size(); i++) {
      Node node = i % 2 == 0 ? one : two;
      boolean now = immediate.get(i);
      rotations.add(
          () -> {
            barrier.await();
            return node.rotation().rotate(now);
          });
    }
    AtomicBoolean racing = new AtomicBoolean(true);
    ExecutorService threads = Executors.newFixedThreadPool(immediate.size() + 2);
    try {
      Future<?> signerOne = threads.submit(() -> sign(one, racing));
      Future<?> signerTwo = threads.submit(() -> sign(two, racing));
      List<SigningKey> rotated = new ArrayList<>();
      for (Future<SigningKey> result : threads.invokeAll(rotations)) {
        rotated.add(result.get());
      }
      racing.set(false);
      signerOne.get();
      signerTwo.get();
      return rotated;
    } finally {
      threads.shutdownNow();
    }
  }

  /** What the token path does: the ring's current key, as each node sees it. */
  private void sign(Node node, AtomicBoolean racing) {
    while (racing.get()) {
      signedWith.add(node.ring().current().kid());
      Thread.onSpinWait();
    }
  }

  private void assertKeptListed(List<SigningKey> rotated) {
    one.ring().refresh();
    List<SigningKey> stored = one.keys().all();
    Instant now = clock.instant();
    for (SigningKey key : stored) {
      key.expiresAt()
          .ifPresent(
              expiry ->
                  assertFalse(
                      expiry.isBefore(key.createdAt()), key.kid() + " expired before made"));
    }
    for (SigningKey key : rotated) {
      SigningKey row = KeyRotationTest.find(stored, key.kid());
      if (!key.activeFrom().equals(key.createdAt())) {
        continue; // not immediate: withdrawing it before it signed is right
      }
      assertTrue(
          row.expiresAt().isEmpty()
              || !row.expiresAt().get().isBefore(row.createdAt().plus(retention())),
          key.kid() + " signed at once, yet leaves the list at " + row.expiresAt());
    }
    for (String kid : signedWith) {
      assertTrue(one.ring().lookup(kid).isPresent(), kid + " signed but is not listed at " + now);
    }
  }

  private Duration retention() {
    return settings.keys().schedule().retention();
  }
}
