package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 26: operators' rotations stop below identity/maxPublishedKeys; the schedule never does. */
class PublishedKeysCapTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final int MAX = 10;

  private final MutableClock clock = new MutableClock(START);
  private Node node;

  void start(Map<String, String> overrides) {
    Settings settings = TestNodes.settings(overrides);
    node = TestNodes.node(TestNodes.newDatabase(), settings, clock);
    node.rotation().rotateIfDue();
  }

  @AfterEach
  void stopNode() {
    node.close();
  }

  long listed() {
    return node.keys().all().stream().filter(key -> key.isListedAt(clock.instant())).count();
  }

  /** Immediate rotations a second apart until one is refused; returns how many succeeded. */
  int rotateUntilRefused() {
    for (int done = 0; done < 3 * MAX; done++) {
      clock.advance(Duration.ofSeconds(1));
      try {
        node.rotation().rotate(true);
      } catch (TooManyKeysException refused) {
        return done;
      }
      assertTrue(listed() <= MAX - 1, "listed: " + listed());
    }
    throw new AssertionError("never refused");
  }

  @Test
  void whenImmediateRotationsWouldPassTheCapThenRefusedSayingWhenTheFirstKeyLeaves() {
    start(Map.of());
    assertEquals(MAX - 2, rotateUntilRefused(), "the first key and 8 more, one place kept");
    int stored = node.keys().all().size();
    Instant firstLeaves = node.keys().all().get(0).expiresAt().orElseThrow();

    TooManyKeysException refused =
        assertThrows(TooManyKeysException.class, () -> node.rotation().rotate(true));

    assertTrue(refused.getMessage().startsWith("9 signing keys are listed and at most 10"));
    assertTrue(refused.getMessage().contains(firstLeaves.toString()), refused.getMessage());
    assertEquals(stored, node.keys().all().size(), "a refusal changes nothing");
    assertEquals(MAX - 1, listed());
  }

  @Test
  void whenTheFirstKeyLeavesTheListThenOperatorsMayRotateAgain() {
    start(Map.of());
    rotateUntilRefused();
    clock.set(node.keys().all().get(0).expiresAt().orElseThrow());

    node.rotation().rotate(true);

    assertEquals(MAX - 1, listed());
  }

  @Test
  void whenRotationsAreNotImmediateThenEachWithdrawsThePendingOneAndNoneIsRefused() {
    start(Map.of());
    for (int i = 0; i < 3 * MAX; i++) {
      clock.advance(Duration.ofSeconds(1));
      node.rotation().rotate(false);
    }
    assertEquals(2, listed());
  }

  @Test
  void whenTheListIsFullThenRevokingTheCurrentKeyStillWorks() {
    start(Map.of());
    rotateUntilRefused();
    String current = node.ring().current().kid();

    assertTrue(node.rotation().revoke(current).isPresent());

    assertTrue(node.ring().lookup(current).isEmpty());
    assertEquals(MAX - 1, listed(), "the revoked key's place went to its successor");
  }

  @Test
  void whenOperatorsFilledTheListThenTheScheduleStillRotatesIntoTheLastPlace() {
    start(
        Map.of(
            "identity/keyRotationInterval", "PT25H",
            "identity/keyRetention", "P10D"));
    rotateUntilRefused();
    clock.advance(Duration.ofHours(2)); // the current key is due: 25 h - 24 h pre-publication

    assertTrue(node.rotation().rotateIfDue());

    assertEquals(MAX, listed());
  }
}
