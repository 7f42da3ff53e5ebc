package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleSessionTest {
  static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  static final Duration IDLE = Duration.ofMinutes(15);
  static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
  static final SessionKey KEY = SessionKey.generate(new SecureRandom());

  final ConsoleSession session =
      ConsoleSession.start(KEY, TOKEN, NOW.plus(Duration.ofHours(1)), NOW, new SecureRandom());

  @Test
  void whenIdleLongerThanTheTimeoutThenItIsDeadAndEachRequestSlidesIt() {
    assertTrue(session.isLiveAt(NOW.plus(IDLE), IDLE));
    assertFalse(session.isLiveAt(NOW.plus(IDLE).plusSeconds(1), IDLE));
    ConsoleSession seen = session.seenAt(NOW.plus(Duration.ofMinutes(14)));
    assertTrue(seen.isLiveAt(NOW.plus(Duration.ofMinutes(28)), IDLE));
    assertEquals(session.csrf(), seen.csrf(), "the CSRF token lasts the session");
  }

  @Test
  void whenTheTokenExpiresThenTheSessionEndsHoweverBusy() {
    ConsoleSession busy = session.seenAt(NOW.plus(Duration.ofMinutes(59)));
    assertTrue(busy.isLiveAt(NOW.plus(Duration.ofMinutes(59)), IDLE));
    assertFalse(busy.isLiveAt(NOW.plus(Duration.ofHours(1)), IDLE));
  }

  @Test
  void whenWrittenAndReadThenTheSameAndAnythingElseIsRefused() {
    ConsoleSession read = ConsoleSession.of(session.bytes()).orElseThrow();
    assertEquals(session.id(), read.id());
    assertEquals(session.csrf(), read.csrf());
    assertEquals(TOKEN, read.token());
    assertEquals(session.expiresAt(), read.expiresAt());
    assertEquals(session.seenAt(), read.seenAt());
    assertEquals(KEY.encoded(), read.key().encoded());
    String valid = new String(session.bytes(), StandardCharsets.US_ASCII);
    for (String junk :
        List.of(
            "",
            valid + " extra",
            valid.replace(TOKEN, "not-a-jwt"),
            valid.replace(KEY.encoded(), KEY.encoded().substring(1)),
            valid.replace(KEY.encoded() + " ", ""),
            valid.replaceFirst("^[^ ]+", "short"),
            valid.replaceFirst(" [0-9]+ ", " -1 "))) {
      assertTrue(ConsoleSession.of(junk.getBytes(StandardCharsets.US_ASCII)).isEmpty(), junk);
    }
    assertFalse(session.toString().contains(TOKEN), "the token never reaches a log line");
    assertFalse(session.toString().contains(session.csrf()));
    assertFalse(session.toString().contains(KEY.encoded()), "nor the session's private key");
  }

  @Test
  void whenTheCsrfTokenIsComparedThenOnlyTheExactValuePasses() {
    assertTrue(session.isCsrf(session.csrf()));
    assertFalse(session.isCsrf(null));
    assertFalse(session.isCsrf(""));
    assertFalse(session.isCsrf(session.csrf().substring(1)));
    assertFalse(session.isCsrf(session.csrf() + "x"));
  }
}
