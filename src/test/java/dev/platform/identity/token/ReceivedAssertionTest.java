package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The attacker review of issue 36: an assertion whose claims name a member twice ({@code
 * "aud":"https://other","aud":ISSUER}) was read by its last value and got a token. Refused now,
 * whichever member is repeated, in the header too.
 */
class ReceivedAssertionTest {
  static String part(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"aud\":\"https://other.example\",\"aud\":\"http://127.0.0.1:8080\"}",
        "{\"sub\":\"a\",\"sub\":\"b\"}",
        "{\"jti\":\"1\",\"jti\":\"2\"}"
      })
  void whenAClaimIsNamedTwiceThenTheAssertionIsRefused(String claims) {
    String assertion = part("{\"alg\":\"RS256\"}") + "." + part(claims) + ".c2ln";

    OAuthError refused = assertThrows(OAuthError.class, () -> ReceivedAssertion.parse(assertion));

    assertEquals(OAuthError.INVALID_CLIENT, refused.error());
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"alg\":\"none\",\"alg\":\"RS256\"}"})
  void whenAHeaderMemberIsNamedTwiceThenTheAssertionIsRefused(String header) {
    String assertion = part(header) + "." + part("{\"sub\":\"a\"}") + ".c2ln";

    assertThrows(OAuthError.class, () -> ReceivedAssertion.parse(assertion));
  }
}
