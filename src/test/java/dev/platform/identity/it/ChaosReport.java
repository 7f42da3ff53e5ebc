package dev.platform.identity.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The chaos suite's table (issue 35): one line per attack and route group with the probe's figures
 * and the attack's own, and which of the row's properties failed. Printed as each row is done and
 * written whole to {@code target/chaos-report.md} after every row, so it can be pasted into
 * docs/security.md.
 */
final class ChaosReport {
  static final Path FILE = Path.of("target", "chaos-report.md");
  private static final List<String> LINES = new ArrayList<>();
  private static final String HEAD =
      "| attack | on | requests | success | p50 ms | p99 ms | max ms | attack's figure | holds |\n"
          + "|---|---|---|---|---|---|---|---|---|\n";

  private ChaosReport() {}

  static Row row(String attack, String on) {
    return new Row(attack, on);
  }

  /** One line of the table; {@link #record} adds it, then fails with every property it broke. */
  static final class Row {
    private final String attack;
    private final String on;
    private ChaosProbe.Samples probe = new ChaosProbe.Samples();
    private final List<String> figures = new ArrayList<>();
    private final List<String> broken = new ArrayList<>();
    private final List<String> brokenNames = new ArrayList<>();
    private final List<String> held = new ArrayList<>();

    private Row(String attack, String on) {
      this.attack = attack;
      this.on = on;
    }

    /** The probe's figures for the row. */
    Row probe(ChaosProbe.Samples samples) {
      this.probe = samples;
      return this;
    }

    /** The attack's own figure (sockets, bytes, statuses). */
    Row figure(String figure) {
      figures.add(figure);
      return this;
    }

    /** A property of the row: {@code holds}, else it is listed as broken, with {@code detail}. */
    Row check(boolean holds, String property, Object detail) {
      if (holds) {
        held.add(property);
      } else {
        broken.add(property + " (" + detail + ")");
        brokenNames.add(property);
      }
      return this;
    }

    /** The probe answered every request, with its p99 under {@code p99Millis}. */
    Row probeHolds(long p99Millis) {
      check(probe.requests() > 0 && probe.successRate() == 100.0, "probe 100 % answered", probe);
      return check(
          probe.percentile(99) < p99Millis,
          "p99 < " + p99Millis + " ms",
          probe + "; slowest " + probe.slowest());
    }

    /** Adds the line to the report, then throws if a property broke. */
    void record() {
      String line =
          String.format(
              "| %s | %s | %d | %.1f %% | %d | %d | %d | %s | %s |",
              attack,
              on,
              probe.requests(),
              probe.successRate(),
              probe.percentile(50),
              probe.percentile(99),
              probe.max(),
              String.join("; ", figures),
              broken.isEmpty() ? "yes" : "**NO**: " + String.join("; ", brokenNames));
      synchronized (LINES) {
        LINES.add(line);
        write();
      }
      System.out.println("chaos: " + line + (broken.isEmpty() ? "" : " " + broken));
      if (!broken.isEmpty()) {
        throw new AssertionError(attack + " on " + on + " broke: " + String.join("; ", broken));
      }
    }
  }

  private static void write() {
    try {
      Files.createDirectories(FILE.getParent());
      Files.writeString(FILE, HEAD + String.join("\n", LINES) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table so far, for a class's closing print. */
  static String table() {
    synchronized (LINES) {
      return HEAD + String.join("\n", LINES);
    }
  }
}
