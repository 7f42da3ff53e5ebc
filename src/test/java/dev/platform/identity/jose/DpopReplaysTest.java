package dev.platform.identity.jose;

import static dev.platform.identity.jose.DpopProofsTest.assertReason;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.jose.DpopProofException.Reason;
import dev.platform.identity.key.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9449 §11.1: a proof's jti is taken once within its window, in bounded memory. */
class DpopReplaysTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  private final MutableClock clock = new MutableClock(NOW);
  private final DpopReplays replays = new DpopReplays(clock, 3);

  @Test
  void whenAProofIsReplayedThenRefused() {
    replays.claim(proof("k1", "a", NOW));
    assertReason(Reason.REPLAYED, () -> replays.claim(proof("k1", "a", NOW)));
  }

  @Test
  void whenAProofCheckedTwiceIsClaimedTwiceThenTheSecondIsRefused() {
    DpopProofs proofs = DpopProofs.builder().clock(clock).build();
    String text = DpopProofsTest.es256(DpopProofsTest.header(), DpopProofsTest.claims());
    URI token = DpopProofsTest.TOKEN;
    replays.claim(proofs.check(List.of(text), "POST", token, Optional.empty(), Optional.empty()));
    DpopProof again =
        proofs.check(List.of(text), "POST", token, Optional.empty(), Optional.empty());
    assertReason(Reason.REPLAYED, () -> replays.claim(again));
  }

  @Test
  void whenTheSameJtiComesWithAnotherKeyThenTaken() {
    replays.claim(proof("k1", "a", NOW));
    replays.claim(proof("k2", "a", NOW));
    assertEquals(2, replays.size());
  }

  @Test
  void whenTheWindowHasPassedThenTheEntryIsForgotten() {
    replays.claim(proof("k1", "a", NOW));
    clock.advance(Duration.ofSeconds(60));
    assertReason(Reason.REPLAYED, () -> replays.claim(proof("k1", "a", NOW)));
    clock.advance(Duration.ofSeconds(1));
    replays.claim(proof("k1", "b", NOW.plusSeconds(61)));
    assertEquals(1, replays.size());
  }

  @Test
  void whenFullOfUnexpiredProofsThenNewOnesAreRefusedAndOldOnesStillKnown() {
    replays.claim(proof("k1", "a", NOW));
    replays.claim(proof("k1", "b", NOW));
    replays.claim(proof("k1", "c", NOW));
    assertReason(Reason.BUSY, () -> replays.claim(proof("k1", "d", NOW)));
    assertReason(Reason.REPLAYED, () -> replays.claim(proof("k1", "a", NOW)));
    assertEquals(3, replays.size());
  }

  @Test
  void whenFullAndTheOldestExpireThenRoomIsMade() {
    replays.claim(proof("k1", "a", NOW.minusSeconds(30)));
    replays.claim(proof("k1", "b", NOW));
    replays.claim(proof("k1", "c", NOW));
    clock.advance(Duration.ofSeconds(31));
    replays.claim(proof("k1", "d", NOW.plusSeconds(31)));
    assertReason(Reason.BUSY, () -> replays.claim(proof("k1", "e", NOW.plusSeconds(31))));
  }

  @Test
  void whenAFloodOfUniqueProofsComesThenTheCacheStaysBounded() {
    DpopReplays bounded = new DpopReplays(clock, 1_000);
    int refused = 0;
    for (int i = 0; i < 5_000; i++) {
      try {
        bounded.claim(proof("attacker", "jti-" + i, NOW));
      } catch (DpopProofException e) {
        refused++;
      }
    }
    assertEquals(1_000, bounded.size());
    assertEquals(4_000, refused);
  }

  @Test
  void whenTheBoundIsNotPositiveThenRefused() {
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> new DpopReplays(clock, 0));
  }

  private static DpopProof proof(String thumbprint, String jti, Instant iat) {
    return new DpopProof(thumbprint, jti, iat, iat.plus(DpopProofs.DEFAULT_MAX_AGE));
  }
}
