package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class OAuthErrorTest {
  @Test
  void whenBuiltByFactoriesThenSpecStatusesAndCodes() {
    assertError(400, "invalid_request", OAuthError.invalidRequest("d"));
    assertError(401, "invalid_client", OAuthError.invalidClient("d", false));
    assertError(400, "invalid_scope", OAuthError.invalidScope("d"));
    assertError(400, "unsupported_grant_type", OAuthError.unsupportedGrantType("d"));
    assertError(
        429, "rate_limit_exceeded", OAuthError.rateLimitExceeded("d", Duration.ofSeconds(3)));
  }

  @Test
  void whenInvalidClientToBasicThenChallenged() {
    assertTrue(OAuthError.invalidClient("d", true).basicChallenge());
    assertFalse(OAuthError.invalidClient("d", false).basicChallenge());
  }

  @Test
  void whenNot401ThenNeverChallenged() {
    assertFalse(OAuthError.invalidRequest("d").basicChallenge());
    assertFalse(new OAuthError(405, OAuthError.INVALID_REQUEST, "use POST").basicChallenge());
  }

  @Test
  void whenRateLimitedThenRetryAfterIsWholeSecondsRoundedUpAtLeastOne() {
    assertEquals(OptionalLong.of(2), retryAfter(Duration.ofMillis(1500)));
    assertEquals(OptionalLong.of(60), retryAfter(Duration.ofSeconds(60)));
    assertEquals(OptionalLong.of(1), retryAfter(Duration.ZERO));
    assertEquals(OptionalLong.empty(), OAuthError.invalidRequest("d").retryAfterSeconds());
  }

  @Test
  void whenDescriptionHasQuotesOrBackslashesThenReplaced() {
    assertEquals(
        "scope 'a' is bad, path a/b",
        OAuthError.invalidScope("scope \"a\" is bad, path a\\b").description());
  }

  @Test
  void whenDescriptionHasNonAsciiOrControlsThenReplaced() {
    assertEquals("caf? ? x y", OAuthError.invalidScope("café \uD83D\uDE00 x\ny").description());
  }

  @Test
  void whenAnyTextIsGivenThenTheDescriptionStaysInRfc6749Charset() {
    StringBuilder everything = new StringBuilder();
    for (int c = 0; c < 0x3000; c++) {
      everything.appendCodePoint(c);
    }
    everything.append("\uD83D\uDE00\uD800");

    String description = OAuthError.invalidRequest(everything.toString()).description();

    description
        .chars()
        .forEach(
            c ->
                assertTrue(
                    c == 0x20 || c == 0x21 || c >= 0x23 && c <= 0x5B || c >= 0x5D && c <= 0x7E,
                    "char " + c));
  }

  @Test
  void whenDescriptionIsLongThenCutTo500() {
    String description = OAuthError.invalidRequest("x".repeat(10_000)).description();

    assertEquals(500, description.length());
    assertTrue(description.endsWith("..."));
    assertEquals(500, OAuthError.invalidRequest("y".repeat(500)).description().length());
    assertFalse(OAuthError.invalidRequest("y".repeat(500)).description().endsWith("..."));
  }

  @Test
  void whenErrorCodeOutsideCharsetOrStatusNotAnErrorThenRefused() {
    assertThrows(IllegalArgumentException.class, () -> new OAuthError(400, "bad\"code", "d"));
    assertThrows(IllegalArgumentException.class, () -> new OAuthError(400, "", "d"));
    assertThrows(IllegalArgumentException.class, () -> new OAuthError(200, "ok", "d"));
  }

  @Test
  void whenThrownThenMessageHasCodeAndDescriptionAndNoStackTrace() {
    OAuthError error = OAuthError.invalidRequest("missing parameter: grant_type");

    assertEquals("invalid_request: missing parameter: grant_type", error.getMessage());
    assertEquals(0, error.getStackTrace().length);
  }

  private static OptionalLong retryAfter(Duration wait) {
    return OAuthError.rateLimitExceeded("slow down", wait).retryAfterSeconds();
  }

  private static void assertError(int status, String code, OAuthError error) {
    assertEquals(status, error.status());
    assertEquals(code, error.error());
    assertEquals("d", error.description());
  }
}
