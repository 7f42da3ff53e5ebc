package dev.platform.identity.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Issue 39: the header gate's log stays quiet under a flood (ClientCertificatesTest: the rest). */
class TrustedProxyHeadersTest {
  @Test
  void whenAnUntrustedAddressRepeatsThenItIsLoggedOnceAMinute() {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    TrustedProxyHeaders gate = new TrustedProxyHeaders(fixed(now));

    assertTrue(gate.firstThisMinute("10.0.0.9"));
    assertFalse(gate.firstThisMinute("10.0.0.9"));
    assertTrue(gate.firstThisMinute("10.0.0.10"));
    now.set(now.get().plus(Duration.ofSeconds(61)));
    assertTrue(gate.firstThisMinute("10.0.0.9"));
  }

  @Test
  void whenManyAddressesSendTheHeaderThenTheLinesOfAMinuteAreCapped() {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    TrustedProxyHeaders gate = new TrustedProxyHeaders(fixed(now));
    int logged = 0;
    for (int i = 0; i < 50; i++) {
      logged += gate.firstThisMinute("2001:db8::" + Integer.toHexString(i)) ? 1 : 0;
    }
    assertEquals(TrustedProxyHeaders.MAX_LINES_PER_MINUTE, logged);

    now.set(now.get().plus(Duration.ofSeconds(61)));
    assertTrue(gate.firstThisMinute("2001:db8::ffff"));
  }

  private static Clock fixed(AtomicReference<Instant> now) {
    return new Clock() {
      @Override
      public Instant instant() {
        return now.get();
      }

      @Override
      public java.time.ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }
    };
  }
}
