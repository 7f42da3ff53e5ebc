package dev.platform.identity.http;

/**
 * The body of every 500 (DESIGN decision 6): SPEC 7.1's shape, with the incident id also as its own
 * field, and nothing else. Components in wire order; the snake_case mappers name them.
 *
 * @param error always {@code server_error}
 * @param errorDescription says only that the incident is logged
 * @param incidentId the incident id
 */
public record ServerError(String error, String errorDescription, String incidentId) {
  /** SPEC 7.1's error code of a 500. */
  public static final String SERVER_ERROR = "server_error";

  /** The body that names {@code incident} and nothing more. */
  public static ServerError of(Incident incident) {
    return new ServerError(SERVER_ERROR, incident.description(), incident.id());
  }
}
