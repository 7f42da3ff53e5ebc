package dev.platform.identity.web;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

/**
 * Refuses a path with a {@code ;} parameter in any segment ({@code /admin/v1;x/scopes}, {@code
 * ;jsessionid=}) with 400, before Jersey routes it: no endpoint of this service takes one, and
 * Jersey would strip them and route the request anyway, so a parameter could only change how a path
 * looks to anything that reads it before Jersey. An encoded {@code %3B} is part of the segment's
 * text and stays.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
final class PathParameters implements ContainerRequestFilter {
  @Override
  public void filter(ContainerRequestContext request) {
    String raw = request.getUriInfo().getRequestUri().getRawPath();
    if (raw != null && raw.indexOf(';') >= 0) {
      request.abortWith(
          ClientErrors.of(
              400,
              "Path parameters (';') are not accepted in any path segment",
              request.getUriInfo().getPath()));
    }
  }
}
