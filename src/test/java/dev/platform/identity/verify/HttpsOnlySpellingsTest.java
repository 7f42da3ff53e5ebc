package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The attacker review of issue 23: spellings of a non-loopback (or not plainly loopback) http host
 * beyond those of {@code HttpsOnlyTest}; each is refused.
 */
class HttpsOnlySpellingsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://evil.example#@127.0.0.1",
        "http://evil.example/?@127.0.0.1",
        "http://127.0.0.1@evil.example/",
        "http://127.0.0.1%40evil.example/",
        "http://localhost%2eevil.example/",
        "http://127.0.0.1.evil.example/",
        "http://0x7f.0.0.1/",
        "http://0177.0.0.1/",
        "http://127.000.0.1/",
        "http://127.1/",
        "http://2130706433/",
        "http://127.0.0.1./",
        "http://[0:0:0:0:0:0:0:1]/",
        "http://[::1%25eth0]/",
        "http://%6cocalhost/",
        "http:///127.0.0.1",
        "http:127.0.0.1",
        "http://127.0.0.1:80:90/",
        "jar:http://evil.example!/"
      })
  void whenThePlainHttpHostIsNotALoopbackLiteralThenRefused(String url) {
    assertThrows(IllegalArgumentException.class, () -> HttpsOnly.check("issuer", new URI(url)));
  }
}
