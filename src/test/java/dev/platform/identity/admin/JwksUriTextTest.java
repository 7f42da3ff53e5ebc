package dev.platform.identity.admin;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class JwksUriTextTest {
  /**
   * A jwks_uri is shown with the account (GET /admin/v1/service-accounts), as its name is, but was
   * checked only by java.net.URI, which takes a bidi override or a zero-width mark in its path:
   * {@code https://keys.example.com/\u202Enosj.syek} reads as ".../keys.json" reversed. The rule of
   * names, scope descriptions and certificate subjects (ShownText) holds for it too.
   */
  @Test
  void whenAJwksUriHoldsAFormatCharacterThenItIsRefused() {
    for (String uri :
        List.of(
            "https://keys.example.com/\u202Enosj.syek",
            "https://keys.example.com/a\u200Bb.json",
            "https://keys.example.com/k.json?x=\uFEFF")) {
      ApiError refused =
          assertThrows(ApiError.class, () -> new NewKeys(null, uri).checked(allowed -> {}), uri);
      assertTrue(refused.getMessage().contains("percent-encode"), refused.getMessage());
    }
    assertNotNull(
        new NewKeys(null, "https://keys.example.com/caf%C3%A9.json").checked(allowed -> {}));
  }
}
