package dev.platform.identity.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item 6: only key operations that succeed are charged, and revocation has a budget of its
 * own, larger than rotation's.
 */
class KeyOperationBudgetTest {
  static final String MANAGER = "3f2b8c1e-9a4d-4e5f-8b6a-7c9d0e1f2a3b";

  final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T02:00:00Z"));
  final KeyOperationBudget rotations = KeyOperationBudget.rotations(clock);
  final KeyOperationBudget revocations = KeyOperationBudget.revocations(clock);
  final AtomicInteger ran = new AtomicInteger();

  String succeed() {
    ran.incrementAndGet();
    return "done";
  }

  String refuse() {
    ran.incrementAndGet();
    throw ApiError.conflict("9 signing keys are listed and at most 10 may be");
  }

  @Test
  void whenOperationsAreRefusedThenTheyCostNothing() {
    for (int i = 0; i < 500; i++) {
      assertEquals(
          409,
          assertThrows(ApiError.class, () -> rotations.charge(MANAGER, this::refuse)).status());
    }
    for (int i = 0; i < KeyOperationBudget.ROTATIONS_PER_HOUR; i++) {
      assertEquals("done", rotations.charge(MANAGER, this::succeed), "rotation " + i);
    }
    assertEquals(500 + KeyOperationBudget.ROTATIONS_PER_HOUR, ran.get());
  }

  @Test
  void whenTheSuccessesAreSpentThen429BeforeTheOperationRunsWithTheWaitInSeconds() {
    for (int i = 0; i < KeyOperationBudget.ROTATIONS_PER_HOUR; i++) {
      rotations.charge(MANAGER, this::succeed);
    }

    ApiError refused = assertThrows(ApiError.class, () -> rotations.charge(MANAGER, this::succeed));

    assertEquals(429, refused.status());
    assertEquals(
        "at most 20 key rotations an hour per caller; try again later", refused.getMessage());
    assertEquals(180, refused.retryAfter().orElseThrow()); // one every 3 minutes
    assertEquals(KeyOperationBudget.ROTATIONS_PER_HOUR, ran.get(), "the 429 ran nothing");
  }

  @Test
  void whenRotationsAndRefusalsAreSpentThenARevocationStillPasses() {
    // The report of issue 36: 8 rotations and 12 refusals at the key cap, then a revocation.
    for (int i = 0; i < 8; i++) {
      rotations.charge(MANAGER, this::succeed);
    }
    for (int i = 0; i < 12; i++) {
      assertThrows(ApiError.class, () -> rotations.charge(MANAGER, this::refuse));
    }
    for (int i = 0; i < KeyOperationBudget.ROTATIONS_PER_HOUR - 8; i++) {
      rotations.charge(MANAGER, this::succeed);
    }
    assertEquals(
        429, assertThrows(ApiError.class, () -> rotations.charge(MANAGER, this::succeed)).status());

    assertEquals("done", revocations.charge(MANAGER, this::succeed));
  }

  @Test
  void whenRevocationsAreSpentThenTheyAllowMoreThanRotationsAndRefillOneAMinute() {
    assertTrue(KeyOperationBudget.REVOCATIONS_PER_HOUR > KeyOperationBudget.ROTATIONS_PER_HOUR);
    for (int i = 0; i < KeyOperationBudget.REVOCATIONS_PER_HOUR; i++) {
      revocations.charge(MANAGER, this::succeed);
    }
    ApiError refused =
        assertThrows(ApiError.class, () -> revocations.charge(MANAGER, this::succeed));
    assertEquals(429, refused.status());
    assertEquals(
        "at most 60 key revocations an hour per caller; try again later", refused.getMessage());
    assertEquals(60, refused.retryAfter().orElseThrow());

    clock.advance(Duration.ofMinutes(1));

    assertEquals("done", revocations.charge(MANAGER, this::succeed));
    assertThrows(ApiError.class, () -> revocations.charge(MANAGER, this::succeed));
  }

  @Test
  void whenOneCallerSpendsItsBudgetThenAnotherCallerIsNotLimited() {
    for (int i = 0; i < KeyOperationBudget.ROTATIONS_PER_HOUR; i++) {
      rotations.charge(MANAGER, this::succeed);
    }

    assertEquals("done", rotations.charge("00000000-0000-4000-8000-000000000001", this::succeed));
  }

  @Test
  void whenAnOperationFailsUnexpectedlyThenItsPlaceIsGivenBack() {
    for (int i = 0; i < KeyOperationBudget.ROTATIONS_PER_HOUR; i++) {
      assertThrows(
          IllegalStateException.class,
          () ->
              rotations.charge(
                  MANAGER,
                  () -> {
                    throw new IllegalStateException("the signing keys changed concurrently");
                  }));
    }

    assertEquals("done", rotations.charge(MANAGER, this::succeed));
  }
}
