package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.TestNodes.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 26: the periodic check deletes keys long out of the list, never a listed one. */
class KeyPruningTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final MutableClock clock = new MutableClock(START);
  private Node node;

  @BeforeEach
  void startNode() {
    node = TestNodes.node(TestNodes.newDatabase(), TestNodes.settings(), clock);
    node.rotation().rotateIfDue();
  }

  @AfterEach
  void stopNode() {
    node.close();
  }

  Set<String> kids() {
    return node.keys().all().stream().map(SigningKey::kid).collect(Collectors.toSet());
  }

  @Test
  void whenAKeyExpiredOverThirtyDaysAgoThenTheCheckDeletesItAndKeepsTheCurrentOne() {
    String old = node.ring().current().kid();
    String current = node.rotation().rotate(true).kid();
    Instant expired = KeyRotationTest.find(node.keys().all(), old).expiresAt().orElseThrow();

    clock.set(expired.plus(KeyRotation.PRUNE_AFTER));
    node.rotation().rotateIfDue();
    assertEquals(Set.of(old, current), kids(), "not yet: exactly thirty days");

    clock.advance(Duration.ofSeconds(1));
    node.rotation().rotateIfDue();
    assertEquals(Set.of(current), kids());
    assertEquals(current, node.ring().current().kid());
  }

  @Test
  void whenAKeyWasRevokedOverThirtyDaysAgoThenTheCheckDeletesIt() {
    String old = node.ring().current().kid();
    node.rotation().revoke(old);

    clock.advance(KeyRotation.PRUNE_AFTER.plusSeconds(1));
    node.rotation().rotateIfDue();

    assertTrue(!kids().contains(old));
    assertEquals(1, kids().size());
  }

  @Test
  void whenTheCurrentKeyIsOlderThanThirtyDaysThenItIsKept() {
    String first = node.ring().current().kid();

    clock.advance(Duration.ofDays(80));
    node.rotation().rotateIfDue();

    assertEquals(Set.of(first), kids());
  }
}
