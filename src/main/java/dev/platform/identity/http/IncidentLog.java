package dev.platform.identity.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where every incident is logged: the first of a cause with its stack trace at SEVERE, then the
 * repeats of that cause counted, one SEVERE line a minute ({@code N more incidents like <id> since
 * <time>}), each repeat's own id at FINE only. A database outage is then one stack trace and a line
 * a minute, not a hundred lines per request. A cause is the exception's class and top frame, and
 * those of its root cause; a failure without an exception is its text.
 */
final class IncidentLog {
  /** How long the repeats of a cause are counted before their line is written. */
  static final Duration WINDOW = Duration.ofMinutes(1);

  /** Causes counted at once; beyond them each incident is logged in full, as if it were new. */
  static final int MAX_CAUSES = 1000;

  private final Clock clock;
  private final Logger log;
  private final Map<String, Repeats> causes = new ConcurrentHashMap<>();

  /** The repeats of one cause in the current window; changed only inside the map's compute. */
  private static final class Repeats {
    final String first;
    final String failure;
    Instant since;
    long count;

    Repeats(String first, String failure, Instant since) {
      this.first = first;
      this.failure = failure;
      this.since = since;
    }

    Repeats counted() {
      count++;
      return this;
    }
  }

  IncidentLog(Clock clock, Logger log) {
    this.clock = clock;
    this.log = log;
  }

  /** A new incident for {@code failure}: logged in full if its cause is new, else counted. */
  Incident log(Throwable failure) {
    return log(cause(failure), String.valueOf(failure), failure);
  }

  /** A new incident for a failure seen without an exception (a bare 5xx status). */
  Incident log(String failure) {
    return log("text:" + failure, failure, null);
  }

  private Incident log(String cause, String failure, Throwable thrown) {
    Incident incident = new Incident(UUID.randomUUID().toString());
    Instant now = clock.instant();
    flush(now);
    Optional<String> first = repeatOf(cause, incident, failure, now);
    if (first.isPresent()) {
      log.fine("Incident " + incident.id() + ": like incident " + first.get() + ", counted");
    } else {
      log.log(Level.SEVERE, "Incident " + incident.id() + ": " + failure, thrown);
    }
    return incident;
  }

  /** The first incident of {@code cause} when this one repeats it (and is counted), else empty. */
  private Optional<String> repeatOf(String cause, Incident incident, String failure, Instant now) {
    if (causes.size() >= MAX_CAUSES && !causes.containsKey(cause)) {
      return Optional.empty();
    }
    Repeats repeats =
        causes.compute(
            cause,
            (key, seen) ->
                seen == null ? new Repeats(incident.id(), failure, now) : seen.counted());
    return repeats.first.equals(incident.id()) ? Optional.empty() : Optional.of(repeats.first);
  }

  /**
   * Writes the count of each cause whose window has ended, and forgets a cause that did not come
   * back within its window, so that its next incident is logged in full again. Called with every
   * incident and once a minute ({@link Incident#scheduleFlush}), so the last count of an outage is
   * not held back until the next incident.
   */
  void flush() {
    flush(clock.instant());
  }

  private void flush(Instant now) {
    List<String> counts = new ArrayList<>();
    for (String cause : causes.keySet()) {
      causes.computeIfPresent(cause, (key, repeats) -> ended(repeats, now, counts));
    }
    counts.forEach(log::severe);
  }

  /** The repeats as they are after {@code now}: gone, unchanged, or counted into {@code lines}. */
  private static Repeats ended(Repeats repeats, Instant now, List<String> lines) {
    if (now.isBefore(repeats.since.plus(WINDOW))) {
      return repeats;
    }
    if (repeats.count == 0) {
      return null;
    }
    lines.add(
        repeats.count
            + " more incidents like "
            + repeats.first
            + " since "
            + repeats.since
            + ": "
            + repeats.failure);
    repeats.count = 0;
    repeats.since = now;
    return repeats;
  }

  /** The exception's class and top frame, and those of its root cause: not its message. */
  static String cause(Throwable failure) {
    Throwable root = failure;
    for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
      root = root.getCause();
    }
    return place(failure) + " <- " + place(root);
  }

  private static String place(Throwable failure) {
    StackTraceElement[] frames = failure.getStackTrace();
    return failure.getClass().getName()
        + " at "
        + (frames.length == 0 ? "?" : Objects.toString(frames[0]));
  }
}
