package dev.platform.identity.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/**
 * JSON on the wire: snake_case names from the records' components, nulls written out. A body that
 * names a field twice is refused (400), not read as "the last one wins", which would let a proxy or
 * a log see one value and the service act on another. A boolean field takes only {@code true} or
 * {@code false}: {@code "true"} or {@code 1} is the wrong type (400 naming the field), not a yes.
 */
@Provider
public final class Json implements ContextResolver<ObjectMapper> {
  private final ObjectMapper mapper =
      strictBooleans(
          new ObjectMapper()
              .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
              .setSerializationInclusion(JsonInclude.Include.ALWAYS)
              .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION));

  /** Jackson reads {@code "true"} and {@code 1} as a Boolean unless told not to. */
  private static ObjectMapper strictBooleans(ObjectMapper mapper) {
    mapper
        .coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    return mapper;
  }

  @Override
  public ObjectMapper getContext(Class<?> type) {
    return mapper;
  }
}
