package dev.platform.identity.http;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An unexpected failure (DESIGN decision 6): logged with its cause under a fresh id, which the 500
 * response also carries, so an operator finds the cause from what a client reports. The response
 * itself says nothing more.
 *
 * @param id the incident id, a random UUID
 */
public record Incident(String id) {
  private static final Logger LOG = Logger.getLogger(Incident.class.getName());

  /** A new incident, {@code failure} and its stack trace logged at SEVERE under its id. */
  public static Incident logged(Throwable failure) {
    Incident incident = new Incident(UUID.randomUUID().toString());
    LOG.log(Level.SEVERE, "Incident " + incident.id() + ": " + failure, failure);
    return incident;
  }

  /**
   * A new incident for a failure seen without an exception (a bare 5xx status), logged at SEVERE
   * under its id.
   */
  public static Incident logged(String failure) {
    Incident incident = new Incident(UUID.randomUUID().toString());
    LOG.severe("Incident " + incident.id() + ": " + failure);
    return incident;
  }

  /** The {@code error_description} of the 500: no internal detail, only the id. */
  public String description() {
    return "Internal error; incident " + id + " is logged";
  }
}
