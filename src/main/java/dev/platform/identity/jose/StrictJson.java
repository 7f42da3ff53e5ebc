package dev.platform.identity.jose;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The one way a JOSE header or claims set is read: a JSON object in UTF-8 (RFC 7515 §7.1, RFC 8259
 * §8.1), no byte-order mark, no UTF-16 or UTF-32 (which Jackson would otherwise guess), and no
 * member named twice at any depth, so that no two readers of one token can see two values.
 */
public final class StrictJson {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  /** Trees read by the same rule; a JWK set is read with it too ({@link JwkSet}). */
  static final ObjectMapper TREES = new ObjectMapper(FACTORY);

  private StrictJson() {}

  /**
   * A streaming reader of {@code part}, once its first bytes show a JSON object in UTF-8. A member
   * named twice fails the read with an {@link IOException}.
   *
   * @throws JwsException {@code NOT_JSON} when it cannot be a JSON object in UTF-8
   */
  public static JsonParser parser(byte[] part) throws IOException {
    return FACTORY.createParser(utf8Object(part));
  }

  /**
   * {@code part} read whole, as one JSON object.
   *
   * @throws JwsException {@code NOT_JSON} when it is not one JSON object in UTF-8, or names a
   *     member twice
   */
  public static JsonNode object(byte[] part) {
    try (JsonParser json = parser(part)) {
      JsonNode tree = TREES.readTree(json);
      if (tree == null || !tree.isObject() || json.nextToken() != null) {
        throw notJson("not one JSON object");
      }
      return tree;
    } catch (IOException e) {
      throw notJson("not JSON, or a member named twice: " + e.getMessage());
    }
  }

  /**
   * Whether the reader, having read an object's end, is at the end of its input: one object, not
   * two.
   */
  public static boolean ended(JsonParser json) throws IOException {
    return json.currentToken() == JsonToken.END_OBJECT && json.nextToken() == null;
  }

  /**
   * {@code part}, if it can be a JSON object in UTF-8: its first byte is "{" and none of the next
   * three is zero, which is how Jackson tells UTF-16 and UTF-32 from UTF-8.
   */
  private static byte[] utf8Object(byte[] part) {
    if (part.length == 0 || part[0] != '{') {
      throw notJson("a part is not a JSON object in UTF-8");
    }
    for (int i = 1; i < Math.min(4, part.length); i++) {
      if (part[i] == 0) {
        throw notJson("a part is not a JSON object in UTF-8");
      }
    }
    return part;
  }

  private static JwsException notJson(String detail) {
    return new JwsException(JwsException.Reason.NOT_JSON, detail);
  }
}
