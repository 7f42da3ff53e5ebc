package dev.platform.identity.token;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Writes an {@link OAuthError} as SPEC 7.1 and RFC 6749 §5.2 say: {@code {"error",
 * "error_description"}} (plus {@code retry_after} on a 429), never cached. Only a 401 to a request
 * that tried HTTP Basic carries {@code WWW-Authenticate}; a 400 never does, since clients such as
 * Spring Security's read a challenge on a 400 as a server error.
 */
@Provider
public final class OAuthErrorMapper implements ExceptionMapper<OAuthError> {
  /** RFC 7617 §2: the challenge of a 401 to a Basic request. */
  public static final String BASIC_CHALLENGE = "Basic realm=\"identity\"";

  /** The body; {@code retry_after} appears only on a 429. */
  record ErrorBody(
      String error,
      String errorDescription,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long retryAfter) {}

  @Override
  public Response toResponse(OAuthError failure) {
    Long retryAfter =
        failure.retryAfterSeconds().isPresent() ? failure.retryAfterSeconds().getAsLong() : null;
    Response.ResponseBuilder response =
        Response.status(failure.status())
            .type(MediaType.APPLICATION_JSON_TYPE)
            .header(HttpHeaders.CACHE_CONTROL, "no-store")
            .header("Pragma", "no-cache")
            .entity(new ErrorBody(failure.error(), failure.description(), retryAfter));
    if (failure.basicChallenge()) {
      response.header(HttpHeaders.WWW_AUTHENTICATE, BASIC_CHALLENGE);
    }
    if (retryAfter != null) {
      response.header(HttpHeaders.RETRY_AFTER, retryAfter);
    }
    return response.build();
  }
}
