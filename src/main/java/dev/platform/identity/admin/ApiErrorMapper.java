package dev.platform.identity.admin;

import dev.platform.identity.http.ApiErrorBody;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Writes an {@link ApiError} as SPEC 7.2 says; a 401 or 403 carries the RFC 6750 §3 challenge that
 * tells a client whether to get a new token or to ask for more scope. Public: the composition
 * root's catch-all writes JAX-RS's own errors on administration paths through it.
 */
@Provider
public final class ApiErrorMapper implements ExceptionMapper<ApiError> {
  @Override
  public Response toResponse(ApiError error) {
    Response.ResponseBuilder response =
        Response.status(error.status())
            .type(MediaType.APPLICATION_JSON_TYPE)
            .header(HttpHeaders.CACHE_CONTROL, "no-store")
            .entity(ApiErrorBody.of(error.getMessage()));
    error.challenge().ifPresent(value -> response.header(HttpHeaders.WWW_AUTHENTICATE, value));
    error.retryAfter().ifPresent(seconds -> response.header(HttpHeaders.RETRY_AFTER, seconds));
    return response.build();
  }
}
