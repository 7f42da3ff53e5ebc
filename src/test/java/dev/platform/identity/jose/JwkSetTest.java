package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JWK set names no member twice at any depth: a reader that takes the last {@code keys} or {@code
 * n} and one that takes the first would trust two different keys.
 */
class JwkSetTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"keys\":[{\"kid\":\"good\"}],\"keys\":[{\"kid\":\"evil\"}]}",
        "{\"keys\":[{\"kid\":\"good\",\"n\":\"AQAB\",\"n\":\"AQAC\"}]}",
        "{\"keys\":[{\"kid\":\"good\",\"x\":{\"a\":1,\"a\":2}}]}",
        "{\"keys\":[{\"kid\":\"good\",\"line\\nbreak\":1,\"line\\nbreak\":2}]}"
      })
  void whenASetNamesAMemberTwiceThenItIsNoSetAndTheMessageRepeatsNothingOfIt(String body) {
    IOException refused =
        assertThrows(
            IOException.class,
            () -> JwkSet.read(body.getBytes(StandardCharsets.UTF_8), 10, JsonNode::toString));

    assertEquals("jwks is not JSON, or names a member twice", refused.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"keys\":[{\"kid\":\"a\"},{\"kid\":\"b\"}]}",
        " \n{\"keys\":[{\"kid\":\"a\"},{\"kid\":\"b\"}]}"
      })
  void whenEachMemberIsNamedOnceThenEveryEntryIsRead(String body) throws IOException {
    JwkSet.Usable<String> read =
        JwkSet.read(body.getBytes(StandardCharsets.UTF_8), 10, jwk -> jwk.path("kid").asText());

    assertEquals(List.of("a", "b"), read.entries());
  }
}
