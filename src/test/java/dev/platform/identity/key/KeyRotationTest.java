package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeyRotationTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration PRE_PUBLICATION = Duration.ofHours(24);
  private static final Duration RETENTION = Duration.ofHours(25);
  private static final Duration REFRESH = Duration.ofSeconds(30);
  private static final Duration INTERVAL = Duration.ofDays(90);
  private static final Instant DUE = START.plus(INTERVAL).minus(PRE_PUBLICATION);

  private final MutableClock clock = new MutableClock(START);
  private final Settings settings = TestNodes.settings();
  private final String database = TestNodes.newDatabase();
  private Node node;

  @BeforeEach
  void startNode() {
    node = TestNodes.node(database, settings, clock);
  }

  @AfterEach
  void stopNode() {
    node.close();
  }

  @Test
  void whenFirstStartThenOneKeySignsAtOnce() {
    assertTrue(node.rotation().rotateIfDue());

    SigningKey first = single(node.keys().all());
    assertEquals(first.kid(), node.ring().current().kid());
    assertEquals(START, first.activeFrom());
    assertEquals(START, first.publishedAt());
    assertTrue(first.expiresAt().isEmpty());
    assertTrue(first.kid().matches("[A-Za-z0-9_-]{22}"), first.kid());
  }

  @Test
  void whenStartedAgainThenNoNewKey() {
    node.rotation().rotateIfDue();
    clock.advance(Duration.ofDays(1));

    assertFalse(node.rotation().rotateIfDue());
    assertEquals(1, node.keys().all().size());
  }

  @Test
  void whenNextKeyDueThenPublishedPrePublicationBeforeItSigns() {
    node.rotation().rotateIfDue();
    String first = node.ring().current().kid();
    clock.set(DUE.minusSeconds(1));
    assertFalse(node.rotation().rotateIfDue());

    clock.set(DUE);
    assertTrue(node.rotation().rotateIfDue());

    SigningKey next = newest(node.keys().all());
    assertEquals(DUE, next.publishedAt());
    assertEquals(START.plus(INTERVAL), next.activeFrom());
    assertEquals(first, node.ring().current().kid());
    assertTrue(node.ring().lookup(next.kid()).isPresent(), "the next key is listed at once");
    assertEquals(
        Optional.of(next.activeFrom().plus(RETENTION)), find(node.keys().all(), first).expiresAt());

    clock.set(next.activeFrom().minusMillis(1));
    assertEquals(first, node.ring().current().kid());
    clock.set(next.activeFrom());
    assertEquals(next.kid(), node.ring().current().kid(), "no refresh needed: the rows said when");
  }

  @Test
  void whenNodeWasDownAtDueTimeThenNextKeyStillPublishedPrePublicationAhead() {
    node.rotation().rotateIfDue();
    Instant late = DUE.plus(Duration.ofHours(30));
    clock.set(late);

    assertTrue(node.rotation().rotateIfDue());

    SigningKey next = newest(node.keys().all());
    assertEquals(late.plus(PRE_PUBLICATION), next.activeFrom());
  }

  @Test
  void whenTwoNodesStartOnAnEmptyDatabaseThenOneFirstKey() {
    try (Node other = TestNodes.node(database, settings, clock)) {
      List<SigningKey> empty = node.keys().all();

      assertTrue(node.rotation().createIfDue(empty, START));
      assertFalse(other.rotation().createIfDue(empty, START), "the slot 'first' is taken");

      assertEquals(1, node.keys().all().size());
      other.ring().refresh();
      assertEquals(node.ring().current().kid(), other.ring().current().kid());
    }
  }

  @Test
  void whenTwoNodesDecideAlikeThenUniqueSlotLetsExactlyOneCreateTheNextKey() {
    node.rotation().rotateIfDue();
    try (Node other = TestNodes.node(database, settings, clock)) {
      clock.set(DUE);
      List<SigningKey> seenByNode = node.keys().all();
      List<SigningKey> seenByOther = other.keys().all();

      assertTrue(node.rotation().createIfDue(seenByNode, DUE));
      assertFalse(other.rotation().createIfDue(seenByOther, DUE));

      assertEquals(2, node.keys().all().size());
      other.ring().refresh();
      assertEquals(newest(node.keys().all()).kid(), newest(other.ring().rows()).kid());
    }
  }

  @Test
  void whenTwoNodesRaceOnThreadsThenExactlyOneNextKey() throws Exception {
    node.rotation().rotateIfDue();
    try (Node other = TestNodes.node(database, settings, clock)) {
      clock.set(DUE);
      CyclicBarrier barrier = new CyclicBarrier(2);
      ExecutorService threads = Executors.newFixedThreadPool(2);
      try {
        List<Future<Boolean>> created =
            threads.invokeAll(List.of(race(node, barrier), race(other, barrier)));
        int winners = 0;
        for (Future<Boolean> result : created) {
          winners += result.get() ? 1 : 0;
        }
        assertEquals(1, winners);
      } finally {
        threads.shutdownNow();
      }
      assertEquals(2, node.keys().all().size());
      other.ring().refresh();
      node.ring().refresh();
      assertEquals(node.ring().rows().size(), other.ring().rows().size());
    }
  }

  private static Callable<Boolean> race(Node racer, CyclicBarrier barrier) {
    return () -> {
      barrier.await();
      return racer.rotation().rotateIfDue();
    };
  }

  @Test
  void whenRotateThenPublishedNowAndSignsAfterPrePublication() {
    node.rotation().rotateIfDue();
    String old = node.ring().current().kid();
    clock.advance(Duration.ofDays(10));
    Instant now = clock.instant();

    SigningKey rotated = node.rotation().rotate();

    assertEquals(now, rotated.publishedAt());
    assertEquals(now.plus(PRE_PUBLICATION), rotated.activeFrom());
    assertEquals(old, node.ring().current().kid());
    assertTrue(node.ring().lookup(rotated.kid()).isPresent());
    assertEquals(
        Optional.of(rotated.activeFrom().plus(RETENTION)),
        find(node.keys().all(), old).expiresAt());
    clock.set(rotated.activeFrom());
    assertEquals(rotated.kid(), node.ring().current().kid());
  }

  @Test
  void whenKeysArePublishedRotatedAndRevokedThenEachIsAnAuditEventOfItsTransaction() {
    String operatorId = "0e000000-0000-4000-8000-000000000001";
    node.rotation().rotateIfDue();
    String first = node.ring().current().kid();
    AuditEvent.Source operator =
        (event, target, organization, details) ->
            AuditEvent.success(
                clock.instant(), event, operatorId, target, organization, "10.0.0.1", details);
    clock.advance(Duration.ofSeconds(1));
    String rotated = node.rotation().rotate(true, operator).kid();
    clock.advance(Duration.ofSeconds(1));
    node.rotation().revoke(first, operator);

    List<?> events =
        node.database()
            .read(
                em ->
                    em.createNativeQuery(
                            "select event || ' ' || coalesce(actor, '-') || ' ' || target"
                                + " from audit_event order by id")
                        .getResultList());
    assertEquals(
        List.of(
            "key.publish - " + first,
            "key.rotate.immediate " + operatorId + " " + rotated,
            "key.revoke " + operatorId + " " + first),
        events);
  }

  @Test
  void whenRotateWhileAKeyIsPendingThenThePendingKeyIsWithdrawn() {
    node.rotation().rotateIfDue();
    clock.set(DUE);
    node.rotation().rotateIfDue();
    String pending = newest(node.keys().all()).kid();
    clock.advance(Duration.ofHours(1));

    SigningKey rotated = node.rotation().rotate();

    assertTrue(node.ring().lookup(pending).isEmpty());
    clock.set(rotated.activeFrom());
    assertEquals(rotated.kid(), node.ring().current().kid());
    clock.set(rotated.activeFrom().plus(INTERVAL).minus(PRE_PUBLICATION));
    assertTrue(node.rotation().rotateIfDue(), "the schedule goes on from the new key");
  }

  @Test
  void whenRotateImmediatelyThenSignsAtOnceAndOldKeyStaysListedForRetention() {
    node.rotation().rotateIfDue();
    String old = node.ring().current().kid();
    clock.advance(Duration.ofDays(3));
    Instant now = clock.instant();

    SigningKey rotated = node.rotation().rotate(true);

    assertEquals(rotated.kid(), node.ring().current().kid());
    Instant oldExpiry = now.plus(REFRESH).plus(RETENTION);
    assertEquals(Optional.of(oldExpiry), find(node.keys().all(), old).expiresAt());
    clock.set(oldExpiry.minusMillis(1));
    assertTrue(node.ring().lookup(old).isPresent());
    clock.set(oldExpiry);
    assertTrue(node.ring().lookup(old).isEmpty());
  }

  @Test
  void whenRevokeCurrentThenItLeavesAtOnceAndANewKeySigns() {
    node.rotation().rotateIfDue();
    String old = node.ring().current().kid();
    clock.advance(Duration.ofDays(5));

    Optional<SigningKey> revoked = node.rotation().revoke(old);

    assertEquals(Optional.of(clock.instant()), revoked.flatMap(SigningKey::revokedAt));
    assertTrue(node.ring().lookup(old).isEmpty());
    assertNotEquals(old, node.ring().current().kid());
    assertEquals(clock.instant(), newest(node.keys().all()).activeFrom());
    assertFalse(new String(node.ring().published().body()).contains(old));
  }

  @Test
  void whenRevokeCurrentThenOtherNodesFollowOnTheirNextRefresh() {
    node.rotation().rotateIfDue();
    try (Node other = TestNodes.node(database, settings, clock)) {
      other.rotation().rotateIfDue();
      String old = other.ring().current().kid();

      node.rotation().revoke(old);
      other.ring().refresh();

      assertTrue(other.ring().lookup(old).isEmpty());
      assertEquals(node.ring().current().kid(), other.ring().current().kid());
    }
  }

  @Test
  void whenRevokePendingKeyThenScheduleCreatesAnother() {
    node.rotation().rotateIfDue();
    clock.set(DUE);
    node.rotation().rotateIfDue();
    String pending = newest(node.keys().all()).kid();

    node.rotation().revoke(pending);
    assertTrue(node.ring().lookup(pending).isEmpty());
    assertTrue(node.rotation().rotateIfDue(), "the revoked key gave its slot back");

    List<SigningKey> live =
        node.keys().all().stream().filter(key -> key.revokedAt().isEmpty()).toList();
    assertEquals(2, live.size());
    assertNotEquals(pending, newest(live).kid());
    assertTrue(node.ring().lookup(newest(live).kid()).isPresent());
  }

  @Test
  void whenRevokeUnknownKidThenEmpty() {
    node.rotation().rotateIfDue();

    assertTrue(node.rotation().revoke("no-such-kid").isEmpty());
    assertEquals(1, node.keys().all().size());
  }

  @Test
  void whenKeySizeIsBelow2048ThenNoKeyIsMade() {
    KeyEncryption encryption =
        new KeyEncryption(settings.secrets().keyEncryptionKey(), TestNodes.RANDOM);
    try {
      KeyMaterial.generate(1024, encryption, TestNodes.RANDOM);
      throw new AssertionError("a 1024-bit key was made");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("2048"));
    }
  }

  static SigningKey single(List<SigningKey> keys) {
    assertEquals(1, keys.size());
    return keys.get(0);
  }

  static SigningKey newest(List<SigningKey> keys) {
    return keys.get(keys.size() - 1);
  }

  static SigningKey find(List<SigningKey> keys, String kid) {
    return keys.stream().filter(key -> key.kid().equals(kid)).findFirst().orElseThrow();
  }
}
