package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DpopNoncesTest {
  private static final Instant START = Instant.parse("2026-11-27T10:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);
  private static final byte[] KEY = new byte[32];

  static {
    Arrays.fill(KEY, (byte) 7);
  }

  private static DpopNonces at(Instant instant, byte[] key) {
    return new DpopNonces(key, Clock.fixed(instant, ZoneOffset.UTC), PERIOD);
  }

  @Test
  void everyNodeWithTheKeyGivesAndTakesTheSameNonce() {
    String given = at(START, KEY).current();
    assertEquals(22, given.length());
    assertEquals(given, at(START.plusSeconds(299), KEY).current());
    assertTrue(at(START.plusSeconds(10), KEY).accepts(given));
  }

  @Test
  void theNonceChangesEveryPeriodAndIsTakenOneMoreOnEitherSide() {
    String given = at(START, KEY).current();
    String next = at(START.plus(PERIOD), KEY).current();
    assertNotEquals(given, next);
    assertTrue(at(START.plus(PERIOD), KEY).accepts(given), "the period after");
    assertTrue(at(START.minus(PERIOD), KEY).accepts(given), "a node a little behind");
    assertFalse(at(START.plus(PERIOD.multipliedBy(2)), KEY).accepts(given), "too old");
    assertFalse(at(START.minus(PERIOD.multipliedBy(2)), KEY).accepts(given), "from the future");
  }

  @Test
  void anotherKeysNonceOrAnythingElseIsRefused() {
    byte[] other = KEY.clone();
    other[0] = 8;
    DpopNonces nonces = at(START, KEY);
    assertFalse(nonces.accepts(at(START, other).current()));
    assertFalse(nonces.accepts(null));
    assertFalse(nonces.accepts(""));
    assertFalse(nonces.accepts("not base64url at all!!"));
    assertFalse(nonces.accepts(nonces.current() + "A"));
    // The same 16 bytes spelt with one of the last character's four spare bits set (its canonical
    // spelling is A, Q, g or w; the next letter decodes, leniently, to the same bytes).
    String given = nonces.current();
    char last = given.charAt(21);
    assertTrue("AQgw".indexOf(last) >= 0, given);
    String respelt = given.substring(0, 21) + (char) (last + 1);
    assertArrayEquals(
        java.util.Base64.getUrlDecoder().decode(given),
        java.util.Base64.getUrlDecoder().decode(respelt));
    assertFalse(nonces.accepts(respelt), "a nonce in another spelling of the same bytes");
  }

  @Test
  void aShortKeyOrPeriodIsRefused() {
    Clock clock = Clock.fixed(START, ZoneOffset.UTC);
    assertThrows(IllegalArgumentException.class, () -> new DpopNonces(new byte[31], clock, PERIOD));
    assertThrows(
        IllegalArgumentException.class, () -> new DpopNonces(KEY, clock, Duration.ofMillis(999)));
  }
}
