package dev.platform.identity.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.stream.Collectors;

/**
 * A body that is not the JSON the administration API expects is a 400 naming the field, never a 500
 * or Jackson's internal text. (Only the administration API reads JSON.)
 */
@Provider
public final class InvalidJsonMapper implements ExceptionMapper<JsonProcessingException> {
  @Override
  public Response toResponse(JsonProcessingException failure) {
    for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof ApiError error) {
        return new ApiErrorMapper().toResponse(error);
      }
    }
    return new ApiErrorMapper().toResponse(ApiError.badRequest(message(failure)));
  }

  static String message(JsonProcessingException failure) {
    if (failure instanceof UnrecognizedPropertyException unknown) {
      return "unknown field '" + unknown.getPropertyName() + "'";
    }
    if (failure instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return "field '" + path(mapping) + "' has the wrong type or value";
    }
    return "the body is not valid JSON";
  }

  private static String path(JsonMappingException mapping) {
    return mapping.getPath().stream()
        .map(
            reference ->
                reference.getFieldName() != null
                    ? reference.getFieldName()
                    : "[" + reference.getIndex() + "]")
        .collect(Collectors.joining("."));
  }
}
