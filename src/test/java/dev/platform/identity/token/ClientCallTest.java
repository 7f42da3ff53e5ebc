package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attacks on the request of {@code POST /oauth/revoke} and {@code /oauth/introspect} (issue 38).
 */
class ClientCallTest {
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final String ID = "0b9a1a6e-8f57-4d1c-9a53-1f6c1f7e2a10";
  private static final String SECRET = "Zq3x-7_kP0aVbN2mC4dE6fG8hJ1kL3nM5pQ7rS9tU0w";
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln";
  private static final String CREDENTIALS = "client_id=" + ID + "&client_secret=" + SECRET;

  /**
   * A token sent in the URL (alone, beside one in the body, or with its name encoded) is refused,
   * never read nor silently ignored while the body's is answered.
   */
  @ParameterizedTest
  @ValueSource(strings = {"token=" + TOKEN, "token", "a=1&t%6Fken=" + TOKEN, "token=&x=y"})
  void whenTheTokenIsInTheQueryStringThenInvalidRequest(String query) {
    for (String body : new String[] {CREDENTIALS, CREDENTIALS + "&token=garbage"}) {
      OAuthError error =
          assertThrows(OAuthError.class, () -> ClientCall.from(body, FORM, null, query));

      assertEquals(OAuthError.INVALID_REQUEST, error.error());
      assertTrue(error.description().contains("query string"), error.description());
      assertFalse(error.description().contains(TOKEN), error.description());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "x=y", "token_type_hint=access_token", "tokens=1"})
  void whenTheQueryStringHasNoTokenThenTheBodysTokenIsRead(String query) {
    ClientCall call = ClientCall.from(CREDENTIALS + "&token=" + TOKEN, FORM, null, query);

    assertEquals(TOKEN, call.token());
    assertEquals(ID, call.client().clientId());
  }
}
