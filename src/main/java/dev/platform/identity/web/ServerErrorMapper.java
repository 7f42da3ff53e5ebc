package dev.platform.identity.web;

import dev.platform.identity.audit.Incident;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * The catch-all (DESIGN decision 6): an unexpected failure answers 500 with an incident id and no
 * detail; the log carries the cause under the same id. JAX-RS's own 4xx pass through.
 */
@Provider
public final class ServerErrorMapper implements ExceptionMapper<Throwable> {
  /** The 500 body: SPEC 7.1's shape, with the incident id also as its own field. */
  record ServerError(String error, String errorDescription, String incidentId) {}

  @Override
  public Response toResponse(Throwable failure) {
    if (failure instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
      return web.getResponse();
    }
    Incident incident = Incident.of(failure);
    return Response.serverError()
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header("Cache-Control", "no-store")
        .header("Pragma", "no-cache")
        .entity(new ServerError("server_error", incident.description(), incident.id()))
        .build();
  }
}
