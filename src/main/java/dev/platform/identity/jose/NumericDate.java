package dev.platform.identity.jose;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * RFC 7519 §2 NumericDate, as {@code exp}, {@code nbf} and {@code iat} are read everywhere: a JSON
 * number of seconds since 1970, from 0 to 9999-12-31T23:59:59Z. An ISO-8601 string, a number in a
 * string, a negative number or a later one is refused. A fraction is allowed, as RFC 7519 allows
 * it, and floored. JSON null is an absent claim.
 */
public final class NumericDate {
  /** 9999-12-31T23:59:59Z: a later date is no date. */
  private static final double LATEST = 253_402_300_799d;

  private NumericDate() {}

  /**
   * The date at the parser's current {@code value}, in whole seconds.
   *
   * @return the seconds, or null for JSON null
   * @throws JwsException {@code NUMERIC_DATE} when it is no NumericDate
   */
  public static Long seconds(JsonParser json, JsonToken value, String claim) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
      double seconds = json.getDoubleValue();
      if (inRange(seconds)) {
        return value == JsonToken.VALUE_NUMBER_INT ? json.getLongValue() : (long) seconds;
      }
    }
    throw refused(claim);
  }

  /**
   * The date of {@code claim} in {@code claims}.
   *
   * @return empty when the claim is absent or null
   * @throws JwsException {@code NUMERIC_DATE} when it is no NumericDate
   */
  public static Optional<Instant> of(JsonNode claims, String claim) {
    JsonNode value = claims.get(claim);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isNumber() || !inRange(value.asDouble())) {
      throw refused(claim);
    }
    return Optional.of(Instant.ofEpochSecond((long) Math.floor(value.asDouble())));
  }

  private static boolean inRange(double seconds) {
    return Double.isFinite(seconds) && seconds >= 0 && seconds <= LATEST;
  }

  private static JwsException refused(String claim) {
    return new JwsException(
        JwsException.Reason.NUMERIC_DATE, claim + " is not a NumericDate (RFC 7519 §2)");
  }
}
