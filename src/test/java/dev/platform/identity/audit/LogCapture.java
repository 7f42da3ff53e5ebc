package dev.platform.identity.audit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the messages of one logger while attached; for tests that read what is logged. */
public final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
  }

  /** Starts collecting the messages of the logger {@code name} (and its children). */
  public static LogCapture of(String name) {
    LogCapture capture = new LogCapture(Logger.getLogger(name));
    capture.logger.addHandler(capture);
    return capture;
  }

  /** The messages so far, oldest first. */
  public List<String> messages() {
    return List.copyOf(messages);
  }

  @Override
  public void publish(LogRecord record) {
    messages.add(record.getMessage());
  }

  @Override
  public void flush() {}

  /** Stops collecting. */
  @Override
  public void close() {
    logger.removeHandler(this);
  }
}
