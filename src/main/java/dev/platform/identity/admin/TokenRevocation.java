package dev.platform.identity.admin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.platform.identity.audit.CallerText;
import java.io.IOException;
import java.util.Locale;
import java.util.UUID;

/**
 * The body of {@code POST /service-accounts/{id}/tokens/revoke}: {@code {"jti": "<uuid>"}}, read
 * strictly as {@link SecretRotation} reads its body: one JSON object, that one field once, a jti as
 * this service makes them (a UUID, in either case), so the audit trail never holds a caller's text.
 */
final class TokenRevocation {
  static final String FIELD = "jti";

  private static final JsonFactory JSON = new JsonFactory();

  private TokenRevocation() {}

  /**
   * The jti, in canonical lower case.
   *
   * @throws ApiError 400 naming the field, or saying the body is not the JSON object expected
   */
  static String jti(String body) {
    if (body == null || body.isBlank()) {
      throw ApiError.badRequest("the body must be a JSON object with the field " + FIELD);
    }
    try (JsonParser parser = JSON.createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw ApiError.badRequest("the body must be a JSON object");
      }
      String jti = null;
      for (JsonToken token = parser.nextToken();
          token != JsonToken.END_OBJECT;
          token = parser.nextToken()) {
        jti = field(parser, jti);
      }
      if (parser.nextToken() != null) {
        throw ApiError.badRequest("the body is not valid JSON");
      }
      if (jti == null) {
        throw ApiError.badRequest("missing field " + FIELD);
      }
      return jti;
    } catch (IOException e) {
      throw ApiError.badRequest("the body is not valid JSON");
    }
  }

  private static String field(JsonParser parser, String seen) throws IOException {
    String name = parser.currentName();
    if (!FIELD.equals(name)) {
      throw ApiError.badRequest("unknown field '" + CallerText.shortened(name) + "'");
    }
    if (seen != null) {
      throw ApiError.badRequest("field '" + FIELD + "' is given twice");
    }
    if (parser.nextToken() != JsonToken.VALUE_STRING) {
      throw ApiError.badRequest(FIELD + " must be a string: the token's jti, a UUID");
    }
    return uuid(parser.getText());
  }

  private static String uuid(String text) {
    try {
      String canonical = UUID.fromString(text).toString();
      if (canonical.equals(text.toLowerCase(Locale.ROOT))) {
        return canonical;
      }
    } catch (IllegalArgumentException e) {
      // not a UUID at all: the same 400 as a non-canonical spelling
    }
    throw ApiError.badRequest(FIELD + " must be the token's jti, a UUID");
  }
}
