package dev.platform.identity.web;

import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.ApiErrorMapper;
import dev.platform.identity.http.ErrorBody;
import dev.platform.identity.http.OAuthErrorBody;
import dev.platform.identity.token.OAuthError;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * A client error that JAX-RS raised itself (no route 404, wrong method 405, wrong media type 415, a
 * refused path) in the shape of the surface it was aimed at: SPEC 7.2's {@code {success:false,
 * message}} under the administration API, SPEC 7.1's for the token endpoint, {@code {error}}
 * elsewhere (as SPEC 7.3), by the path's {@link Surface}. The path only chooses the body's shape,
 * never what is allowed. (The container's own errors take the same shapes in {@link
 * ErrorPageServlet}.)
 */
final class ClientErrors {
  private ClientErrors() {}

  static Response of(int status, String message, String path) {
    Surface surface = Surface.of(path.startsWith("/") ? path : "/" + path);
    if (surface == Surface.ADMINISTRATION) {
      return new ApiErrorMapper().toResponse(ApiError.of(status, message));
    }
    Object body =
        surface == Surface.TOKEN
            ? OAuthErrorBody.of(OAuthError.INVALID_REQUEST, message)
            : new ErrorBody(message);
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header(HttpHeaders.CACHE_CONTROL, "no-store")
        .entity(body)
        .build();
  }
}
