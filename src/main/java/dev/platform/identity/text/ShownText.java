package dev.platform.identity.text;

/**
 * Text that the administration API takes and shows again (an account's name, a certificate's
 * subject, a scope's description) refuses the characters that make it look like other text where it
 * is shown: control characters (NUL among them), format characters (the bidi overrides such as
 * U+202E, zero-width marks), the line and paragraph separators U+2028 and U+2029, and a surrogate
 * without its pair (JSON's {@code "\ud800"} decodes to one): it is no character at all, and a
 * database's UTF-8 stores it as {@code ?}, so what was accepted is not what is kept or shown.
 */
public final class ShownText {
  private ShownText() {}

  /** Whether {@code text} holds a character of those above. */
  public static boolean hasDeceptive(String text) {
    return text.codePoints().anyMatch(ShownText::isDeceptive);
  }

  /** Whether {@code codePoint} is one of those characters. */
  public static boolean isDeceptive(int codePoint) {
    int type = Character.getType(codePoint);
    return Character.isISOControl(codePoint)
        || type == Character.FORMAT
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE;
  }
}
