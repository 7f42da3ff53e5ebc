package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.db.Vendor;
import dev.platform.identity.key.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class RateLimiterTest {
  static final String VICTIM = "3f0c2d1e-0000-4000-8000-00000000000a";
  static final String HOME = "10.1.1.1";
  static final String ATTACKER = "203.0.113.66";

  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  final MemoryBuckets store = new MemoryBuckets(new ClockTime(clock), 1000);
  final RateLimiter limiter = new RateLimiter(store, RateLimiter.SPEC_PER_MINUTE);

  /**
   * One request through the limiter, refused before authentication unless 200; true when admitted.
   */
  boolean request(String clientId, String address, int status) {
    Admission admission = limiter.admit(clientId, address);
    if (admission.admitted()) {
      limiter.failed(admission, status, false);
      limiter.settle(admission, status);
    }
    return admission.admitted();
  }

  /**
   * One request that authenticates and is then refused (an ungranted scope); true when it is
   * answered as refused, false when it got a 429 before it ran or instead of the refusal.
   */
  boolean refusedAfterAuthentication(String clientId, String address) {
    Admission admission = limiter.admit(clientId, address);
    if (!admission.admitted()) {
      return false;
    }
    boolean passed = limiter.failed(admission, 400, true).isEmpty();
    limiter.settle(admission, 400);
    return passed;
  }

  /** One request that fails authentication; true when it is answered 401, not 429. */
  boolean failedAuthentication(String clientId, String address) {
    Admission admission = limiter.admit(clientId, address);
    if (!admission.admitted()) {
      return false;
    }
    boolean passed = limiter.failed(admission, 401, false).isEmpty();
    limiter.settle(admission, 401);
    return passed;
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
  void whenAnAuthenticatedClientIsRefusedThreeThousandTimesThenTwentyAreAnsweredAndTheRest429() {
    int answered = 0;
    for (int i = 0; i < 3000; i++) {
      answered += refusedAfterAuthentication(VICTIM, HOME) ? 1 : 0;
    }

    assertEquals(Budget.CLIENT_FAILURES.capacity(), answered);
    Admission next = limiter.admit(VICTIM, "10.9.9.9");
    assertFalse(next.admitted(), "from any address: the budget is the client's");
    assertEquals(Budget.CLIENT_FAILURES, next.spent());
  }

  @Test
  void whenTheClientFailureBudgetIsSpentThenTheNextRequestIsRefusedBeforeItRuns() {
    for (int i = 0; i < Budget.CLIENT_FAILURES.capacity(); i++) {
      assertTrue(refusedAfterAuthentication(VICTIM, HOME));
    }

    assertFalse(limiter.admit(VICTIM, HOME).admitted(), "no jti stored, nothing signed");
    clock.advance(Duration.ofSeconds(60));
    assertTrue(refusedAfterAuthentication(VICTIM, HOME));
  }

  @Test
  void whenAStrangerFailsWithTheClientsIdThenTheClientsOwnFailureBudgetIsUntouched() {
    for (int i = 0; i < 1000; i++) {
      request(VICTIM, "203.0.113." + (i % 200), i % 2 == 0 ? 401 : 400);
    }

    int answered = 0;
    for (int i = 0; i < 100; i++) {
      answered += refusedAfterAuthentication(VICTIM, HOME) ? 1 : 0;
    }
    assertEquals(Budget.CLIENT_FAILURES.capacity(), answered);
  }

  @Test
  void whenARefusalAfterAuthenticationIsAnsweredThenTheAddressBudgetsAreNotSpent() {
    for (int i = 0; i < 100; i++) {
      refusedAfterAuthentication(VICTIM, HOME);
    }

    assertEquals(
        Budget.PAIR_FAILURES.capacity(), countPassing(() -> failedAuthentication(OTHER, HOME)));
  }

  static final String OTHER = "3f0c2d1e-0000-4000-8000-00000000000b";

  static int countPassing(java.util.function.BooleanSupplier request) {
    int passed = 0;
    for (int i = 0; i < 1000; i++) {
      passed += request.getAsBoolean() ? 1 : 0;
    }
    return passed;
  }

  /**
   * 64 threads at once, each trying {@code perThread} requests: how many were answered with their
   * refusal rather than a 429. Bounded: every thread ends once its requests are made.
   */
  static int hammer(int perThread, java.util.function.BooleanSupplier request) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(64);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> counts = new ArrayList<>();
      for (int t = 0; t < 64; t++) {
        counts.add(
            threads.submit(
                () -> {
                  start.await();
                  int passed = 0;
                  for (int i = 0; i < perThread; i++) {
                    passed += request.getAsBoolean() ? 1 : 0;
                  }
                  return passed;
                }));
      }
      start.countDown();
      int passed = 0;
      for (Future<Integer> count : counts) {
        passed += count.get(60, TimeUnit.SECONDS);
      }
      return passed;
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void whenSixtyFourThreadsFailAuthenticationAtOnceThenNoMoreThanTheBudgetAre401()
      throws Exception {
    assertEquals(
        Budget.PAIR_FAILURES.capacity(), hammer(50, () -> failedAuthentication(VICTIM, ATTACKER)));
  }

  @Test
  void whenSixtyFourThreadsAreRefusedAfterAuthenticationAtOnceThenNoMoreThanTheBudgetPass()
      throws Exception {
    assertEquals(
        Budget.CLIENT_FAILURES.capacity(),
        hammer(50, () -> refusedAfterAuthentication(VICTIM, HOME)));
  }

  @Test
  void whenSixtyFourThreadsSendUnparsedRequestsAtOnceThenNoMoreThanTheAddressBudgetPass()
      throws Exception {
    assertEquals(
        Budget.ADDRESS_FAILURES.capacity(), hammer(20, () -> failedAuthentication(null, ATTACKER)));
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
    RateLimiter limiter =
        RateLimiter.inDatabase(unreachable, Vendor.POSTGRESQL, clock, RateLimiter.SPEC_PER_MINUTE);

    try (LogCapture log = LogCapture.of(RateLimiter.class.getName())) {
      assertDoesNotThrow(limiter::removeExpired);

      assertEquals(1, log.messages().size(), log.messages().toString());
      assertTrue(log.messages().get(0).startsWith("Expired rate-limit buckets could not be"));
    }
  }
}
