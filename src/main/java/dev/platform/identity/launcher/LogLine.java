package dev.platform.identity.launcher;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The launcher's console line, {@code 2026-11-22 10:00:00 INFO [logger] message}: what {@code
 * SimpleFormatter} would print with a format, without its costs on every line (it parses the format
 * string and walks the stack for a source the line does not show). The audit trail writes one line
 * per token request, so these costs showed in the token endpoint's profile.
 */
final class LogLine extends Formatter {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  /** Makes every handler of the root logger write this line. */
  static void install() {
    for (Handler handler : Logger.getLogger("").getHandlers()) {
      handler.setFormatter(new LogLine());
    }
  }

  @Override
  public String format(LogRecord record) {
    StringBuilder line =
        new StringBuilder(200)
            .append(TIME.format(record.getInstant()))
            .append(' ')
            .append(record.getLevel().getLocalizedName())
            .append(" [")
            .append(record.getLoggerName())
            .append("] ")
            .append(formatMessage(record));
    if (record.getThrown() != null) {
      StringWriter trace = new StringWriter();
      record.getThrown().printStackTrace(new PrintWriter(trace));
      line.append(System.lineSeparator()).append(trace);
    }
    return line.append(System.lineSeparator()).toString();
  }
}
