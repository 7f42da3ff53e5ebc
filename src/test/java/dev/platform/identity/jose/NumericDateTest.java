package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RFC 7519 §2 NumericDate, one set of bounds for every reader. */
class NumericDateTest {
  static JsonNode claims(String exp) throws Exception {
    return new ObjectMapper().readTree("{\"exp\":" + exp + "}");
  }

  @Test
  void whenTheDateHasAFractionThenItIsFloored() throws Exception {
    assertEquals(
        Optional.of(Instant.ofEpochSecond(1_700_000_000)),
        NumericDate.of(claims("1700000000.9"), "exp"));
  }

  @Test
  void whenTheDateIsNullOrAbsentThenItIsAbsent() throws Exception {
    assertEquals(Optional.empty(), NumericDate.of(claims("null"), "exp"));
    assertEquals(Optional.empty(), NumericDate.of(claims("1"), "nbf"));
  }

  @Test
  void whenTheDateIsTheLastSecondOf9999ThenItIsTaken() throws Exception {
    assertEquals(
        Optional.of(Instant.parse("9999-12-31T23:59:59Z")),
        NumericDate.of(claims("253402300799"), "exp"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "253402300800",
        "1e400",
        "99999999999999999999999",
        "-1",
        "\"1700000000\"",
        "true"
      })
  void whenTheDateIsNoNumericDateThenItIsRefused(String exp) throws Exception {
    JsonNode claims = claims(exp);

    assertEquals(
        JwsException.Reason.NUMERIC_DATE,
        assertThrows(JwsException.class, () -> NumericDate.of(claims, "exp")).reason());
  }
}
