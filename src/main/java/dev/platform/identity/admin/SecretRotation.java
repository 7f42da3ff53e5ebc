package dev.platform.identity.admin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.platform.identity.audit.CallerText;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The optional body of {@code POST /service-accounts/{id}/secret}: {@code
 * {"previous_secret_valid_for": "PT24H", "revoke_tokens": true}}. Read token by token, strictly:
 * one JSON object, each field at most once, the first a string holding an ISO-8601 duration from
 * zero to the configured maximum, the second a boolean (issue 38: the account's tokens issued until
 * now are revoked with the rotation). Jackson's data binding would keep the last of two same-named
 * fields; this says 400.
 */
final class SecretRotation {
  static final String FIELD = "previous_secret_valid_for";
  static final String REVOKE_TOKENS = "revoke_tokens";

  /** What a rotation's body asks for. */
  record Request(Duration overlap, boolean revokeTokens) {}

  private static final JsonFactory JSON = new JsonFactory();

  /** The list filter: accounts whose current secret is older than this duration. */
  static final String OLDER_THAN = "secret_older_than";

  private SecretRotation() {}

  /**
   * The moment a current secret must have been made before to be listed: {@code now} minus the
   * duration of {@code secret_older_than}; empty without the parameter.
   *
   * @param values every value of the parameter in the query, or null when it is absent
   * @throws ApiError 400 when it is named twice, or is not a duration from zero
   */
  static Optional<Instant> olderThan(List<String> values, Instant now) {
    if (values == null || values.isEmpty()) {
      return Optional.empty();
    }
    if (values.size() > 1) {
      throw ApiError.badRequest(OLDER_THAN + " is given twice");
    }
    Duration age = duration(OLDER_THAN, values.get(0), "P80D");
    try {
      return Optional.of(now.minus(age));
    } catch (DateTimeException | ArithmeticException e) {
      throw ApiError.badRequest(OLDER_THAN + " reaches before the earliest time: " + age);
    }
  }

  /**
   * How long the replaced secret keeps working: zero for no body, an empty one or {@code {}}.
   *
   * @throws ApiError 400 naming the field, or saying the body is not the JSON object expected
   */
  static Duration overlap(String body, Duration max) {
    return read(body, max).overlap();
  }

  /**
   * The overlap ({@link #overlap}) and whether the account's tokens are revoked (false unless
   * {@code "revoke_tokens": true}).
   *
   * @throws ApiError 400 naming the field, or saying the body is not the JSON object expected
   */
  static Request read(String body, Duration max) {
    if (body == null || body.isBlank()) {
      return new Request(Duration.ZERO, false);
    }
    try (JsonParser parser = JSON.createParser(body)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw ApiError.badRequest("the body must be a JSON object");
      }
      String text = null;
      Boolean revoke = null;
      for (JsonToken token = parser.nextToken();
          token != JsonToken.END_OBJECT;
          token = parser.nextToken()) {
        if (REVOKE_TOKENS.equals(parser.currentName())) {
          revoke = revokeTokens(parser, revoke);
        } else {
          text = field(parser, text);
        }
      }
      if (parser.nextToken() != null) {
        throw ApiError.badRequest("the body is not valid JSON");
      }
      return new Request(
          text == null ? Duration.ZERO : checked(text, max), Boolean.TRUE.equals(revoke));
    } catch (IOException e) {
      throw ApiError.badRequest("the body is not valid JSON");
    }
  }

  private static Boolean revokeTokens(JsonParser parser, Boolean seen) throws IOException {
    if (seen != null) {
      throw ApiError.badRequest("field '" + REVOKE_TOKENS + "' is given twice");
    }
    JsonToken value = parser.nextToken();
    if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
      throw ApiError.badRequest(REVOKE_TOKENS + " must be true or false");
    }
    return value == JsonToken.VALUE_TRUE;
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
      throw ApiError.badRequest(
          FIELD + " must be a string holding an ISO-8601 duration such as PT24H");
    }
    return parser.getText();
  }

  private static Duration checked(String text, Duration max) {
    Duration overlap = duration(FIELD, text, "PT24H");
    if (overlap.compareTo(max) > 0) {
      throw ApiError.badRequest(FIELD + " must be at most " + max + " (identity/maxSecretOverlap)");
    }
    return overlap;
  }

  /** {@code text} as an ISO-8601 duration from zero, else 400 naming {@code name}. */
  private static Duration duration(String name, String text, String example) {
    Duration duration;
    try {
      duration = Duration.parse(text);
    } catch (DateTimeException | ArithmeticException e) {
      throw ApiError.badRequest(
          name
              + " is not an ISO-8601 duration such as "
              + example
              + ": '"
              + CallerText.shortened(text)
              + "'");
    }
    if (duration.isNegative()) {
      throw ApiError.badRequest(name + " must not be negative");
    }
    return duration;
  }
}
