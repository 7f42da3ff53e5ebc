package dev.platform.identity.text;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ShownTextTest {
  /**
   * JSON's escapes decode to a lone surrogate ({@code "a\ud800b"}, or a pair in the wrong order):
   * PUT /admin/v1/scopes/{scope} accepted it as a description, which a UTF-8 database keeps as
   * {@code a?b}. A pair in order is one character (an emoji) and is text like any other.
   */
  @Test
  void whenTextHoldsASurrogateWithoutItsPairThenItIsRefused() {
    assertTrue(ShownText.hasDeceptive("a\ud800b"));
    assertTrue(ShownText.hasDeceptive("a\udc00b"));
    assertTrue(ShownText.hasDeceptive("\udc00\ud800"));
    assertTrue(ShownText.hasDeceptive("end\ud83d"));
    assertFalse(ShownText.hasDeceptive("orders \ud83d\udce6"));
    assertFalse(ShownText.hasDeceptive("Read the café's orders"));
  }
}
