package dev.platform.identity.key;

import dev.platform.identity.http.ErrorBody;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** SPEC 7.3: 404 {@code {"error": ...}}, never cached: the key may be published a moment later. */
@Provider
public final class UnknownKeyMapper implements ExceptionMapper<UnknownKeyException> {
  @Override
  public Response toResponse(UnknownKeyException unknown) {
    return Response.status(Response.Status.NOT_FOUND)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .header("Cache-Control", "no-store")
        .entity(new ErrorBody("Key not found or expired"))
        .build();
  }
}
