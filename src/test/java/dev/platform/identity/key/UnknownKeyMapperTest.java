package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

class UnknownKeyMapperTest {
  @Test
  void whenAKeyIsUnknownThen404ErrorShapeNeverStored() throws Exception {
    Response response = new UnknownKeyMapper().toResponse(new UnknownKeyException("k1"));

    assertEquals(404, response.getStatus());
    assertEquals("no-store", response.getHeaderString("Cache-Control"));
    assertEquals("application/json", response.getMediaType().toString());
    assertEquals(
        "{\"error\":\"Key not found or expired\"}",
        new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .writeValueAsString(response.getEntity()));
  }
}
