package dev.platform.identity.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: the rotation body and the secret-age filter are read strictly, 400 naming the field.
 */
class SecretRotationTest {
  static final Duration MAX = Duration.ofDays(7);
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  static String refusal(String body) {
    ApiError error = assertThrows(ApiError.class, () -> SecretRotation.overlap(body, MAX));
    assertEquals(400, error.status());
    return error.getMessage();
  }

  @Test
  void whenThereIsNoBodyOrAnEmptyOneThenThereIsNoOverlap() {
    assertEquals(Duration.ZERO, SecretRotation.overlap(null, MAX));
    assertEquals(Duration.ZERO, SecretRotation.overlap("", MAX));
    assertEquals(Duration.ZERO, SecretRotation.overlap(" \n", MAX));
    assertEquals(Duration.ZERO, SecretRotation.overlap("{}", MAX));
  }

  @Test
  void whenADurationFromZeroToTheMaximumIsGivenThenItIsTheOverlap() {
    assertEquals(
        Duration.ofHours(24),
        SecretRotation.overlap("{\"previous_secret_valid_for\": \"PT24H\"}", MAX));
    assertEquals(
        Duration.ZERO, SecretRotation.overlap("{\"previous_secret_valid_for\":\"PT0S\"}", MAX));
    assertEquals(MAX, SecretRotation.overlap("{\"previous_secret_valid_for\":\"P7D\"}", MAX));
  }

  @Test
  void whenTheFieldIsGivenTwiceThen400NamingIt() {
    String message =
        refusal("{\"previous_secret_valid_for\":\"PT1H\",\"previous_secret_valid_for\":\"PT2H\"}");
    assertEquals("field 'previous_secret_valid_for' is given twice", message);
  }

  @Test
  void whenTheValueIsHugeThen400NamingTheField() {
    assertTrue(
        refusal("{\"previous_secret_valid_for\":\"PT9999999999999999999H\"}")
            .startsWith("previous_secret_valid_for is not an ISO-8601 duration"));
    assertTrue(
        refusal("{\"previous_secret_valid_for\":\"P100000D\"}")
            .startsWith("previous_secret_valid_for must be at most PT168H"));
    assertTrue(
        refusal("{\"previous_secret_valid_for\":\"P7DT1S\"}")
            .startsWith("previous_secret_valid_for must be at most"));
  }

  @Test
  void whenTheValueIsNegativeOrNotADurationOrNotAStringThen400NamingTheField() {
    assertEquals(
        "previous_secret_valid_for must not be negative",
        refusal("{\"previous_secret_valid_for\":\"-PT1H\"}"));
    assertTrue(
        refusal("{\"previous_secret_valid_for\":\"tomorrow\"}")
            .startsWith("previous_secret_valid_for is not an ISO-8601 duration"));
    assertTrue(
        refusal("{\"previous_secret_valid_for\":\"P1M\"}")
            .startsWith("previous_secret_valid_for is not an ISO-8601 duration"));
    for (String value : List.of("3600", "null", "true", "[\"PT1H\"]", "{\"a\":1}")) {
      assertTrue(
          refusal("{\"previous_secret_valid_for\":" + value + "}")
              .startsWith("previous_secret_valid_for must be a string"),
          value);
    }
  }

  @Test
  void whenTheBodyHasAnUnknownFieldOrIsNotAnObjectThen400() {
    assertEquals("unknown field 'valid_for'", refusal("{\"valid_for\":\"PT1H\"}"));
    assertEquals(
        "unknown field 'client_secret'",
        refusal("{\"previous_secret_valid_for\":\"PT1H\",\"client_secret\":\"mine\"}"));
    assertEquals("the body must be a JSON object", refusal("[\"PT1H\"]"));
    assertEquals("the body must be a JSON object", refusal("\"PT1H\""));
    assertEquals("the body is not valid JSON", refusal("{\"previous_secret_valid_for\":"));
    assertEquals("the body is not valid JSON", refusal("{} {}"));
  }

  @Test
  void whenTheSecretAgeFilterIsGivenThenItIsNowMinusTheDuration() {
    assertEquals(Optional.empty(), SecretRotation.olderThan(null, NOW));
    assertEquals(
        Optional.of(NOW.minus(Duration.ofDays(80))),
        SecretRotation.olderThan(List.of("P80D"), NOW));
  }

  @Test
  void whenTheSecretAgeFilterIsBadOrGivenTwiceThen400() {
    for (List<String> values :
        List.of(
            List.of("P80D", "P10D"),
            List.of("eighty days"),
            List.of("-P1D"),
            List.of(""),
            List.of("PT9999999999999999999H"),
            List.of("P999999999999D"))) {
      ApiError error =
          assertThrows(ApiError.class, () -> SecretRotation.olderThan(values, NOW), "" + values);
      assertEquals(400, error.status());
      assertTrue(error.getMessage().startsWith("secret_older_than"), error.getMessage());
    }
  }
}
