package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.audit.AuditEvents;
import dev.platform.identity.audit.AuditQuery;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExhaustedBudgetsTest {
  static final String VICTIM = "3f0c2d1e-0000-4000-8000-00000000000a";
  static final String ATTACKER = "203.0.113.66";

  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  final String name = "exhausted-" + UUID.randomUUID();
  final Database nodeA = Database.open(TestDatabases.h2DataSource(name));
  final Database nodeB = Database.open(TestDatabases.h2DataSource(name));
  final AuditEvents events = new AuditEvents(nodeA);

  @AfterEach
  void close() {
    nodeA.close();
    nodeB.close();
  }

  RateLimiter limiter(Database database) {
    return new RateLimiter(
        new MemoryBuckets(new ClockTime(clock), 1000),
        RateLimiter.SPEC_PER_MINUTE,
        new ExhaustedBudgets(new AuditEvents(database), clock));
  }

  static void fail(RateLimiter limiter, int times) {
    for (int i = 0; i < times; i++) {
      Admission admission = limiter.admit(VICTIM, ATTACKER);
      if (admission.admitted()) {
        limiter.settle(admission, 401);
      }
    }
  }

  List<AuditEvent> stored() {
    return events
        .list(
            new AuditQuery(
                Optional.of("ratelimit.exhausted"),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                500))
        .events();
  }

  @Test
  void whenAFailureBudgetRunsOutUnderAFloodThenOneEventPerBucketAndWindow() {
    RateLimiter a = limiter(nodeA);
    fail(a, 200);
    assertEquals(1, stored().size(), "the (client, address) budget ran out once");
    AuditEvent event = stored().get(0);
    assertEquals(Optional.of(VICTIM), event.actor());
    assertEquals(Optional.of("fail"), event.target());
    assertEquals(Optional.of(ATTACKER), event.remoteAddress());
    assertEquals("2026-06-01T00:00:00Z", event.details().get("window_start"));

    fail(limiter(nodeB), 200); // another node, its own buckets, the same window
    assertEquals(1, stored().size(), "the fleet stores one per bucket and window");

    clock.advance(Duration.ofMinutes(1));
    fail(a, 200);
    assertEquals(2, stored().size(), "the next window");
  }
}
