package dev.platform.identity.http;

import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * An unexpected failure (DESIGN decision 6): logged with its cause under a fresh id, which the 500
 * response also carries, so an operator finds the cause from what a client reports. The response
 * itself says nothing more. Every entry point (the JAX-RS catch-all, the error page, the token
 * servlet) logs through the one {@link IncidentLog} here, so a cause that repeats is logged in full
 * once and then counted.
 *
 * @param id the incident id, a random UUID
 */
public record Incident(String id) {
  private static final IncidentLog LOG =
      new IncidentLog(Clock.systemUTC(), Logger.getLogger(Incident.class.getName()));

  /** A new incident; {@code failure} and its stack trace logged at SEVERE, unless a repeat. */
  public static Incident logged(Throwable failure) {
    return LOG.log(failure);
  }

  /** A new incident for a failure seen without an exception (a bare 5xx status). */
  public static Incident logged(String failure) {
    return LOG.log(failure);
  }

  /** Writes the counts of repeated incidents once a minute, even when no new incident comes. */
  public static void scheduleFlush(ScheduledExecutorService scheduler) {
    scheduler.scheduleWithFixedDelay(LOG::flush, 1, 1, TimeUnit.MINUTES);
  }

  /** The {@code error_description} of the 500: no internal detail, only the id. */
  public String description() {
    return "Internal error; incident " + id + " is logged";
  }
}
