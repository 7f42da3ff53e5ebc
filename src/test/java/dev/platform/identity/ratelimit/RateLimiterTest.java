package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.key.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class RateLimiterTest {
  static final String VICTIM = "3f0c2d1e-0000-4000-8000-00000000000a";
  static final String HOME = "10.1.1.1";
  static final String ATTACKER = "203.0.113.66";

  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  final MemoryBuckets store = new MemoryBuckets(new ClockTime(clock), 1000);
  final RateLimiter limiter = new RateLimiter(store, RateLimiter.SPEC_PER_MINUTE);

  /** One request through the limiter; true when admitted. */
  boolean request(String clientId, String address, int status) {
    Admission admission = limiter.admit(clientId, address);
    if (admission.admitted()) {
      limiter.settle(admission, status);
    }
    return admission.admitted();
  }

  int successesWithin(String clientId, String address, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; i++) {
      admitted += request(clientId, address, 200) ? 1 : 0;
    }
    return admitted;
  }

  @Test
  void whenTheSixtyFirstSuccessComesWithinAMinuteThenItIsRefusedWithARetryTime() {
    assertEquals(60, successesWithin(VICTIM, HOME, 60));

    Admission refused = limiter.admit(VICTIM, HOME);

    assertFalse(refused.admitted());
    assertTrue(refused.retryAfterSeconds() >= 1 && refused.retryAfterSeconds() <= 60);
    assertNull(refused.success());
  }

  @Test
  void whenTheMinuteHasPassedThenTheBudgetIsFullAgain() {
    successesWithin(VICTIM, HOME, 60);
    assertFalse(limiter.admit(VICTIM, HOME).admitted());

    clock.advance(Duration.ofSeconds(60));

    assertEquals(60, successesWithin(VICTIM, HOME, 61));
  }

  @Test
  void whenOneClientIsSpentThenAnotherIsUnaffected() {
    successesWithin(VICTIM, HOME, 61);

    assertEquals(60, successesWithin(UUID.randomUUID().toString(), HOME, 60));
  }

  @Test
  void whenAStrangerFailsAThousandTimesThenTheVictimKeepsItsFullBudget() {
    int strangerAdmitted = 0;
    for (int i = 0; i < 1000; i++) {
      strangerAdmitted += request(VICTIM, ATTACKER, 401) ? 1 : 0;
    }

    assertEquals(Budget.PAIR_FAILURES.capacity(), strangerAdmitted);
    assertEquals(60, successesWithin(VICTIM, HOME, 60));
  }

  @Test
  void whenAnAddressFailsForManyClientsThenThatAddressIsBlockedAndNoOtherIs() {
    for (int i = 0; i < Budget.ADDRESS_FAILURES.capacity(); i++) {
      assertTrue(request(UUID.randomUUID().toString(), ATTACKER, 401));
    }

    assertFalse(limiter.admit(UUID.randomUUID().toString(), ATTACKER).admitted());
    assertFalse(limiter.admit(null, ATTACKER).admitted());
    assertTrue(limiter.admit(VICTIM, HOME).admitted());
  }

  @Test
  void whenRequestsNameNoClientThenTheirFailuresCountAgainstTheAddress() {
    for (int i = 0; i < Budget.ADDRESS_FAILURES.capacity(); i++) {
      assertTrue(request(null, ATTACKER, 400));
    }

    assertFalse(limiter.admit(null, ATTACKER).admitted());
  }

  @Test
  void whenARequestFailsThenItsSuccessTokenIsGivenBack() {
    for (int i = 0; i < 100; i++) {
      request(VICTIM, HOME, 400);
    }

    assertEquals(60, successesWithin(VICTIM, HOME, 60));
  }

  @Test
  void whenAHundredThousandRandomClientsFloodThenTheStoreStaysBounded() {
    for (int i = 0; i < 100_000; i++) {
      request(UUID.randomUUID().toString(), "198.51.100." + (i % 250), 200);
    }

    assertTrue(store.size() <= 1000, "entries: " + store.size());
  }

  @Test
  void whenTheDatabaseCannotBeReachedThenCleanupLogsAndLeavesTheScheduleRunning() {
    PGSimpleDataSource unreachable = new PGSimpleDataSource();
    unreachable.setUrl("jdbc:postgresql://127.0.0.1:1/identity?connectTimeout=1");
    RateLimiter limiter = RateLimiter.inDatabase(unreachable, clock, RateLimiter.SPEC_PER_MINUTE);

    try (LogCapture log = LogCapture.of(RateLimiter.class.getName())) {
      assertDoesNotThrow(limiter::removeExpired);

      assertEquals(1, log.messages().size(), log.messages().toString());
      assertTrue(log.messages().get(0).startsWith("Expired rate-limit buckets could not be"));
    }
  }
}
