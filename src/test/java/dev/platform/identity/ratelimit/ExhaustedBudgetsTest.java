package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        limiter.failed(admission, 401, false);
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

  /** Fails once for {@code client} from {@code address}, if the limiter lets the request in. */
  static void failOnce(RateLimiter limiter, String client, String address) {
    Admission admission = limiter.admit(client, address);
    if (admission.admitted()) {
      limiter.failed(admission, 401, false);
      limiter.settle(admission, 401);
    }
  }

  RateLimiter roomyLimiter() {
    return new RateLimiter(
        new MemoryBuckets(new ClockTime(clock), 100_000),
        RateLimiter.SPEC_PER_MINUTE,
        new ExhaustedBudgets(events, clock));
  }

  /**
   * Attack (issue 20 §3): one anonymous address sends wrong secrets for a fresh random client_id
   * every 20 requests, as fast as the address budget lets it (300 a minute, refilled smoothly).
   * Each (client, address) bucket it empties is a row: the address alone writes about one row per
   * 20 failures, 16 in a minute, never one per request.
   */
  @Test
  void whenOneAddressFloodsWithFreshClientIdsThenAtMostSixteenRowsAMinute() {
    RateLimiter limiter = roomyLimiter();
    String client = UUID.randomUUID().toString();
    int sent = 0;
    for (int tick = 0; tick < 600; tick++) { // one minute in 100 ms steps, 10 requests a step
      for (int i = 0; i < 10; i++) {
        if (sent++ % 20 == 0) {
          client = UUID.randomUUID().toString();
        }
        failOnce(limiter, client, ATTACKER);
      }
      clock.advance(Duration.ofMillis(100));
    }
    int rows = stored().size();
    assertTrue(rows <= 17, rows + " rows from one address in a minute");
    assertTrue(rows >= 10, rows + " rows: the flood did empty buckets");
  }

  /**
   * The attacker review of issue 20 §3 found nothing bounded the rows: every address that empties
   * one (client, address) bucket added a row, so a caller with many addresses (an IPv6 /64, a
   * botnet) wrote one row per 20 requests for as long as it liked, each kept for
   * identity/auditRetention. A node now stores at most 60 a minute.
   */
  @Test
  void whenManyAddressesEachEmptyOneBucketThenANodeStoresAtMostSixtyAMinute() {
    RateLimiter limiter = roomyLimiter();
    int addresses = 200;
    for (int a = 0; a < addresses; a++) {
      String address = "2001:db8::" + Integer.toHexString(a + 1);
      String client = UUID.randomUUID().toString();
      for (int i = 0; i < 20; i++) {
        failOnce(limiter, client, address);
      }
    }
    assertEquals(ExhaustedBudgets.MAX_PER_MINUTE, stored().size(), "capped within the minute");

    clock.advance(Duration.ofMinutes(1));
    String client = UUID.randomUUID().toString();
    for (int i = 0; i < 20; i++) {
      failOnce(limiter, client, "2001:db8::ffff");
    }
    assertEquals(ExhaustedBudgets.MAX_PER_MINUTE + 1, stored().size());
    assertEquals(
        Integer.toString(addresses - ExhaustedBudgets.MAX_PER_MINUTE),
        stored().get(0).details().get("suppressed_before"),
        "the next row stands for those held back: " + stored().get(0).details());
  }
}
