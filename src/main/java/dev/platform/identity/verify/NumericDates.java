package dev.platform.identity.verify;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * RFC 7519 §2 NumericDate: {@code exp}, {@code nbf} and {@code iat} are JSON numbers of seconds
 * since 1970. An ISO-8601 string, a number in a string (which JJWT alone took, issue 26), a
 * negative number or one past the year 9999 is refused. A number with a fraction is allowed, as RFC
 * 7519 allows it, and floored. JSON null is an absent claim.
 */
final class NumericDates {
  /** 9999-12-31T23:59:59Z: a later date is no date. */
  private static final double LATEST = 253_402_300_799d;

  private NumericDates() {}

  /**
   * The date at the parser's current {@code value}, in whole seconds.
   *
   * @return the seconds, or null for JSON null
   * @throws UnauthenticatedException "invalid token" when it is no NumericDate
   */
  static Long seconds(JsonParser json, JsonToken value, String claim) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
      double seconds = json.getDoubleValue();
      if (Double.isFinite(seconds) && seconds >= 0 && seconds <= LATEST) {
        return value == JsonToken.VALUE_NUMBER_INT ? json.getLongValue() : (long) seconds;
      }
    }
    throw UnauthenticatedException.of(
        UnauthenticatedException.INVALID_TOKEN,
        new IllegalArgumentException(claim + " is not a NumericDate (RFC 7519 §2)"));
  }
}
