package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9449 §4.3 check 9 with RFC 3986 §6.2.2 and §6.2.3 normalisation. */
class HttpTargetTest {
  private static final String TOKEN = "https://id.example.com/oauth/token";

  @Test
  void whenTheTextHoldsALoneSurrogateThenItNamesNoTarget() {
    assertEquals(Optional.empty(), HttpTarget.normalised(TOKEN + "\ud800"));
    assertEquals(Optional.empty(), HttpTarget.normalised(TOKEN + "?q=\udfff"));
    assertEquals(Optional.empty(), HttpTarget.normalised("https://a\ud800@id.example.com/x"));
  }

  @Test
  void whenSchemeOrHostDifferOnlyInCaseThenSame() {
    assertSame(TOKEN, "HTTPS://ID.Example.COM/oauth/token");
  }

  @Test
  void whenTheDefaultPortIsWrittenOrEmptyThenSame() {
    assertSame(TOKEN, "https://id.example.com:443/oauth/token");
    assertSame(TOKEN, "https://id.example.com:/oauth/token");
    assertSame("http://id.example.com/x", "http://id.example.com:80/x");
  }

  @Test
  void whenTheRequestHasAQueryOrFragmentThenTheyAreIgnored() {
    assertSame(TOKEN, "https://id.example.com/oauth/token?grant_type=x#top");
  }

  @Test
  void whenPercentEncodingOrDotSegmentsDifferThenSame() {
    assertSame("https://h.example/a~b/%2F", "https://h.example/a%7eb/%2f");
    assertSame("https://h.example/a/token", "https://h.example/a/./b/../token");
    assertSame("https://h.example/", "https://h.example/..");
    assertSame("https://h.example/", "https://h.example");
    assertSame("https://h.example/caf%C3%A9", "https://h.example/café");
  }

  @Test
  void whenPathPortSchemeOrHostDifferThenNotSame() {
    assertNotSame(TOKEN, "https://id.example.com/oauth/Token");
    assertNotSame(TOKEN, "https://id.example.com:8443/oauth/token");
    assertNotSame(TOKEN, "http://id.example.com/oauth/token");
    assertNotSame(TOKEN, "https://id.example.org/oauth/token");
    assertNotSame(TOKEN, "https://id.example.com/oauth/token/");
    assertNotSame(TOKEN, "https://user@id.example.com/oauth/token");
  }

  @Test
  void whenNotAnAbsoluteHttpUriThenNone() {
    assertTrue(HttpTarget.normalised("/oauth/token").isEmpty());
    assertTrue(HttpTarget.normalised("ftp://id.example.com/x").isEmpty());
    assertTrue(HttpTarget.normalised("urn:x:y").isEmpty());
    assertTrue(HttpTarget.normalised("https://bad host/").isEmpty());
    assertTrue(HttpTarget.normalised("https:///path").isEmpty());
  }

  private static void assertSame(String proof, String request) {
    Optional<String> expected = HttpTarget.normalised(proof);
    assertTrue(expected.isPresent(), proof);
    assertEquals(expected, HttpTarget.normalised(URI.create(request)), request);
  }

  private static void assertNotSame(String proof, String request) {
    assertNotEquals(HttpTarget.normalised(proof), HttpTarget.normalised(URI.create(request)));
  }
}
