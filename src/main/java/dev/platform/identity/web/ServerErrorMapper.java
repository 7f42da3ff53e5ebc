package dev.platform.identity.web;

import dev.platform.identity.db.DatabaseTrouble;
import dev.platform.identity.http.AbortedRequest;
import dev.platform.identity.http.Incident;
import dev.platform.identity.http.OAuthErrorBody;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * The catch-all (DESIGN decision 6): an unexpected failure answers 500 with an incident id and no
 * detail; the log carries the cause under the same id. JAX-RS's own 4xx ({@link
 * WebApplicationException}) are written in the shape of the surface ({@link ClientErrors}), 405
 * with its {@code Allow}. A request the client gave up on, such as a body cut short by a closed
 * connection, is its own doing: 400 in the surface's shape, and no incident.
 */
@Provider
final class ServerErrorMapper implements ExceptionMapper<Throwable> {
  /** What a client that gave up on its request is told, should it still listen. */
  static final String ABORTED = "The request body ended before it was complete";

  private static final Logger LOG = Logger.getLogger(ServerErrorMapper.class.getName());
  private static final String CONSOLE = "/console";

  @Context UriInfo uri;

  @Override
  public Response toResponse(Throwable failure) {
    if (failure instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
      return clientError(web.getResponse());
    }
    if (AbortedRequest.isCause(failure)) {
      LOG.fine(() -> "Request to " + uri.getPath() + " given up by the client: " + failure);
      return ClientErrors.of(400, ABORTED, uri.getPath());
    }
    if (DatabaseTrouble.of(failure).isPresent()) {
      return databaseUnavailable();
    }
    return Response.serverError()
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header("Cache-Control", "no-store")
        .header("Pragma", "no-cache")
        .entity(OAuthErrorBody.of(Incident.logged(failure)))
        .build();
  }

  /**
   * The database is busy or slow: 503 with {@code Retry-After}, in the surface's shape (SPEC 7.2
   * under the administration API), a page under the console; no incident, since the guard logs the
   * stall once a minute.
   */
  private Response databaseUnavailable() {
    String message = DatabaseTrouble.MESSAGE;
    String path = "/" + uri.getPath();
    Response shaped =
        Surface.normalize(path).toLowerCase(Locale.ROOT).startsWith(CONSOLE)
            ? Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .header("Cache-Control", "no-store")
                .entity(
                    "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Busy"
                        + "</title></head><body><h1>Try again in a moment</h1><p>"
                        + message
                        + ".</p></body></html>")
                .build()
            : ClientErrors.of(503, message, path);
    return Response.fromResponse(shaped)
        .header(HttpHeaders.RETRY_AFTER, DatabaseTrouble.RETRY_AFTER_SECONDS)
        .build();
  }

  private Response clientError(Response raised) {
    int status = raised.getStatus();
    Response shaped = ClientErrors.of(status, StatusTexts.explanation(status), uri.getPath());
    Object allow = raised.getHeaders().getFirst(HttpHeaders.ALLOW);
    return allow == null
        ? shaped
        : Response.fromResponse(shaped).header(HttpHeaders.ALLOW, allow).build();
  }
}
