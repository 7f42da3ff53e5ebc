package dev.platform.identity.client;

import java.time.Duration;

/** Waits between retries; a seam so tests record the waits instead of waiting. */
@FunctionalInterface
public interface Sleeper {
  /** The real one. */
  Sleeper THREAD = duration -> Thread.sleep(duration.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
