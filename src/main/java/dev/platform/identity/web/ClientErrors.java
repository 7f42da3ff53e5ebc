package dev.platform.identity.web;

import dev.platform.identity.admin.ApiError;
import dev.platform.identity.admin.ApiErrorMapper;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/**
 * A client error that JAX-RS raised itself (no route 404, wrong method 405, wrong media type 415, a
 * refused path) in the shape of the surface it was aimed at: SPEC 7.2's {@code {success:false,
 * message}} under the administration API, {@code {error}} elsewhere (as SPEC 7.3). The path only
 * chooses the body's shape, never what is allowed.
 */
final class ClientErrors {
  /** The {@code {error}} body of every surface but the administration API. */
  record Body(String error) {}

  private ClientErrors() {}

  static Response of(int status, String message, String path) {
    if (looksAdmin(path)) {
      return new ApiErrorMapper().toResponse(ApiError.of(status, message));
    }
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header(HttpHeaders.CACHE_CONTROL, "no-store")
        .entity(new Body(message))
        .build();
  }

  /** Whether a path, however spelled ({@code //}, {@code ;x}, case), points at {@code admin}. */
  static boolean looksAdmin(String path) {
    String first = path.replaceAll("^[/;.]+", "").split("[/;]", 2)[0];
    return first.toLowerCase(Locale.ROOT).equals("admin");
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
