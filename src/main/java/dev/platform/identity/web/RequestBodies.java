package dev.platform.identity.web;

import dev.platform.identity.http.AbortedRequest;
import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

/**
 * Every body Jersey reads comes through {@link AbortedRequest#body}, first of all, so a body the
 * client did not send to its end is known as such wherever it is read (JSON, a form, the console's
 * CSRF check) and answered 400 by {@link ServerErrorMapper}, not logged as an incident.
 */
@Provider
@PreMatching
@Priority(1)
final class RequestBodies implements ContainerRequestFilter {
  @Override
  public void filter(ContainerRequestContext request) {
    request.setEntityStream(AbortedRequest.body(request.getEntityStream()));
  }
}
