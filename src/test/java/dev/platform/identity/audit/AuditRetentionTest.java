package dev.platform.identity.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AuditRetentionTest {
  static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
  static final Duration RETENTION = Duration.ofDays(400);

  final String name = "retention-" + UUID.randomUUID();
  final Database nodeA = Database.open(TestDatabases.h2DataSource(name));
  final Database nodeB = Database.open(TestDatabases.h2DataSource(name));

  @AfterEach
  void close() {
    nodeA.close();
    nodeB.close();
  }

  static Clock at(Instant instant) {
    return Clock.fixed(instant, ZoneOffset.UTC);
  }

  AuditRetention retention(Database database, Instant now) {
    return new AuditRetention(database, RETENTION, at(now), 2);
  }

  void store(Instant time) {
    nodeA.write(
        em -> {
          AuditEvent.bySystem(time, "key.publish", "kid", null, Map.of()).storeIn(em);
          return null;
        });
  }

  List<Instant> kept() {
    return nodeA.read(
        em ->
            em.createQuery("select e.time from AuditEvent e order by e.time", Instant.class)
                .getResultList());
  }

  @Test
  void whenDueThenEveryExpiredEventIsDeletedInBatchesAndTheRestKept() {
    Instant cutoff = NOW.minus(RETENTION);
    for (int i = 1; i <= 5; i++) {
      store(cutoff.minusSeconds(i));
    }
    store(cutoff);
    store(NOW);

    assertEquals(5, retention(nodeA, NOW).runIfDue(), "three batches of at most 2");
    assertEquals(List.of(cutoff, NOW), kept());
  }

  @Test
  void whenOneNodeRanTodayThenNoNodeRunsAgainUntilADayLater() {
    store(NOW.minus(RETENTION).minusSeconds(10));
    retention(nodeA, NOW).runIfDue();
    store(NOW.minus(RETENTION).minusSeconds(5));

    assertEquals(0, retention(nodeB, NOW.plus(Duration.ofHours(23))).runIfDue(), "another node");
    assertEquals(0, retention(nodeA, NOW.plus(Duration.ofHours(1))).runIfDue(), "the same node");
    assertEquals(1, retention(nodeB, NOW.plus(Duration.ofDays(1))).runIfDue(), "a day later");
  }

  @Test
  void whenNothingExpiredThenNothingIsDeleted() {
    store(NOW.minus(Duration.ofDays(1)));
    assertEquals(0, retention(nodeA, NOW).runIfDue());
    assertEquals(1, kept().size());
  }
}
