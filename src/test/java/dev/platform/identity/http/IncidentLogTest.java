package dev.platform.identity.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.key.MutableClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item 7: a cause that repeats is logged once with its stack trace, then counted once a
 * minute, and every incident still has an id of its own.
 */
class IncidentLogTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T02:00:00Z"));
  final Logger logger = Logger.getLogger("test.incidents." + UUID.randomUUID());
  final Captured captured = new Captured();
  final IncidentLog incidents = new IncidentLog(clock, logger);

  /** The records of {@link #logger}, with their level and stack trace, from FINE up. */
  static final class Captured extends Handler {
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    List<LogRecord> at(Level level) {
      return records.stream().filter(record -> record.getLevel().equals(level)).toList();
    }
  }

  IncidentLogTest() {
    logger.setUseParentHandlers(false);
    logger.setLevel(Level.FINE);
    logger.addHandler(captured);
  }

  @AfterEach
  void detach() {
    logger.removeHandler(captured);
  }

  /** The same failure each time: as every request meets it during a database outage. */
  static RuntimeException outage() {
    return new IllegalStateException(
        "database unreachable", new SQLException("Connection to 127.0.0.1:5432 refused"));
  }

  static RuntimeException other() {
    return new UnsupportedOperationException("another cause");
  }

  @Test
  void whenACauseRepeatsThenOneStackTraceAndEachIncidentItsOwnId() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      ids.add(incidents.log(outage()).id());
    }

    assertEquals(100, ids.size(), "each response names its own incident");
    List<LogRecord> severe = captured.at(Level.SEVERE);
    assertEquals(1, severe.size(), severe.toString());
    assertNotNull(severe.get(0).getThrown(), "the first has its stack trace");
    assertTrue(severe.get(0).getMessage().startsWith("Incident "), severe.get(0).getMessage());
    assertEquals(99, captured.at(Level.FINE).size(), "each repeat's id at FINE");
    assertTrue(
        captured.at(Level.FINE).stream().allMatch(record -> record.getThrown() == null),
        "no stack trace for a repeat");
  }

  @Test
  void whenTheMinuteEndsThenTheRepeatsAreCountedInOneLineNamingTheFirst() {
    String first = incidents.log(outage()).id();
    for (int i = 0; i < 41; i++) {
      clock.advance(Duration.ofSeconds(1));
      incidents.log(outage());
    }
    clock.set(Instant.parse("2026-11-27T02:01:00Z"));

    incidents.flush();

    List<LogRecord> severe = captured.at(Level.SEVERE);
    assertEquals(2, severe.size(), severe.toString());
    assertEquals(
        "41 more incidents like "
            + first
            + " since 2026-11-27T02:00:00Z: java.lang.IllegalStateException: database unreachable",
        severe.get(1).getMessage());
    assertNull(severe.get(1).getThrown());
  }

  @Test
  void whenTheOutageLastsThenALineAMinuteAndNoSecondStackTrace() {
    for (int minute = 0; minute < 5; minute++) {
      for (int i = 0; i < 10; i++) {
        incidents.log(outage());
        clock.advance(Duration.ofSeconds(6));
      }
    }
    incidents.flush();

    List<LogRecord> severe = captured.at(Level.SEVERE);
    assertEquals(1, severe.stream().filter(record -> record.getThrown() != null).count());
    assertEquals(6, severe.size(), severe.toString()); // the first, then one count a minute
    assertTrue(severe.get(1).getMessage().startsWith("9 more incidents like "));
    assertTrue(severe.get(2).getMessage().startsWith("10 more incidents like "));
  }

  @Test
  void whenNothingRepeatedWithinTheMinuteThenNoCountAndTheNextIsLoggedInFullAgain() {
    incidents.log(outage());
    clock.advance(Duration.ofMinutes(1));
    incidents.flush();
    assertEquals(1, captured.at(Level.SEVERE).size(), "no '0 more' line");

    clock.advance(Duration.ofHours(1));
    incidents.log(outage());

    List<LogRecord> severe = captured.at(Level.SEVERE);
    assertEquals(2, severe.size());
    assertNotNull(severe.get(1).getThrown(), "a later outage gets its own stack trace");
  }

  @Test
  void whenCausesDifferThenEachIsLoggedInFull() {
    incidents.log(outage());
    incidents.log(other());
    incidents.log(new IllegalStateException("another message, same place"));
    incidents.log("the container answered 503 for /x");
    incidents.log("the container answered 503 for /x");

    List<LogRecord> severe = captured.at(Level.SEVERE);
    assertEquals(4, severe.size(), severe.toString());
    assertEquals(
        "the container answered 503 for /x",
        severe.get(3).getMessage().substring(severe.get(3).getMessage().indexOf(": ") + 2));
  }

  @Test
  void whenTheSameClassIsThrownFromAnotherPlaceThenItIsAnotherCause() {
    RuntimeException here = outage();
    RuntimeException there = thrownElsewhere();

    assertNotEquals(IncidentLog.cause(here), IncidentLog.cause(there));
    assertEquals(IncidentLog.cause(outage()), IncidentLog.cause(outage()));
  }

  private static RuntimeException thrownElsewhere() {
    return new IllegalStateException(
        "database unreachable", new SQLException("Connection to 127.0.0.1:5432 refused"));
  }

  @Test
  void whenManyCausesAreCountedThenFurtherOnesAreLoggedInFullNotForgotten() {
    for (int i = 0; i < IncidentLog.MAX_CAUSES + 5; i++) {
      incidents.log("distinct failure " + i);
      incidents.log("distinct failure " + i);
    }

    long full = captured.at(Level.SEVERE).size();
    assertEquals(IncidentLog.MAX_CAUSES + 2 * 5, full);
  }
}
