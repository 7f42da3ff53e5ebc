package dev.platform.identity.web;

import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.ApiErrorMapper;
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
  /** The {@code {error}} body of the key endpoints and any other path (SPEC 7.3). */
  record Body(String error) {}

  /** SPEC 7.1's body, for a path aimed at the token endpoint that Jersey got instead. */
  record TokenBody(String error, String errorDescription) {}

  private ClientErrors() {}

  static Response of(int status, String message, String path) {
    Surface surface = Surface.of(path.startsWith("/") ? path : "/" + path);
    if (surface == Surface.ADMINISTRATION) {
      return new ApiErrorMapper().toResponse(ApiError.of(status, message));
    }
    Object body =
        surface == Surface.TOKEN ? new TokenBody("invalid_request", message) : new Body(message);
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header(HttpHeaders.CACHE_CONTROL, "no-store")
        .entity(body)
        .build();
  }

  /** A short message for a status JAX-RS raised. */
  static String message(int status) {
    return switch (status) {
      case 404 -> "No resource at this path";
      case 405 -> "Method not allowed at this path";
      case 406 -> "No acceptable representation: this API answers application/json";
      case 415 -> "Unsupported Content-Type: send application/json";
      default -> "The request was refused (HTTP " + status + ")";
    };
  }
}
