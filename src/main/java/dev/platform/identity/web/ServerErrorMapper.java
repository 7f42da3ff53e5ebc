package dev.platform.identity.web;

import dev.platform.identity.http.Incident;
import dev.platform.identity.http.ServerError;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * The catch-all (DESIGN decision 6): an unexpected failure answers 500 with an incident id and no
 * detail; the log carries the cause under the same id. JAX-RS's own 4xx ({@link
 * WebApplicationException}) are written in the shape of the surface ({@link ClientErrors}), 405
 * with its {@code Allow}.
 */
@Provider
final class ServerErrorMapper implements ExceptionMapper<Throwable> {
  @Context UriInfo uri;

  @Override
  public Response toResponse(Throwable failure) {
    if (failure instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
      return clientError(web.getResponse());
    }
    return Response.serverError()
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header("Cache-Control", "no-store")
        .header("Pragma", "no-cache")
        .entity(ServerError.of(Incident.logged(failure)))
        .build();
  }

  private Response clientError(Response raised) {
    int status = raised.getStatus();
    Response shaped = ClientErrors.of(status, ClientErrors.message(status), uri.getPath());
    Object allow = raised.getHeaders().getFirst(HttpHeaders.ALLOW);
    return allow == null
        ? shaped
        : Response.fromResponse(shaped).header(HttpHeaders.ALLOW, allow).build();
  }
}
