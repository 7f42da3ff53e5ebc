package dev.platform.identity.admin;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.platform.identity.audit.CallerText;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A body that is not the JSON the administration API expects is a 400 naming the field, never a 500
 * or Jackson's internal text. (Only the administration API reads JSON.)
 */
@Provider
public final class InvalidJsonMapper implements ExceptionMapper<JsonProcessingException> {
  /** Jackson's wording for a field named twice (JsonParser.Feature.STRICT_DUPLICATE_DETECTION). */
  private static final Pattern DUPLICATE =
      Pattern.compile("Duplicate field '(.*)'", Pattern.DOTALL);

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
    Matcher duplicate = DUPLICATE.matcher(String.valueOf(failure.getOriginalMessage()));
    if (failure instanceof JsonParseException && duplicate.lookingAt()) {
      return "field '" + CallerText.shortened(duplicate.group(1)) + "' is given twice";
    }
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
