package dev.platform.identity.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/**
 * JSON on the wire: snake_case names from the records' components, nulls written out. A body that
 * names a field twice is refused (400), not read as "the last one wins", which would let a proxy or
 * a log see one value and the service act on another.
 */
@Provider
public final class Json implements ContextResolver<ObjectMapper> {
  private final ObjectMapper mapper =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .setSerializationInclusion(JsonInclude.Include.ALWAYS)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  @Override
  public ObjectMapper getContext(Class<?> type) {
    return mapper;
  }
}
