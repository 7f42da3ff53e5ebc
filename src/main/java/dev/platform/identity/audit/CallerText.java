package dev.platform.identity.audit;

import java.util.Locale;

/**
 * Text a caller sent (a client_id, a scope, a kid), shortened before it is written back in an error
 * or a log line, so a stranger's long input cannot swell either.
 */
public final class CallerText {
  /** The longest text shown; longer text is cut here and ends in {@code ...}. */
  static final int MAX_LENGTH = 100;

  /** What an audit line or log line shows for a client_id that has not the form of one. */
  public static final String MALFORMED_CLIENT_ID = "(malformed client_id)";

  /** A client_id is an account's key, a UUID (SPEC 3.1): 8-4-4-4-12 hex digits, in any case. */
  private static final String CLIENT_ID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

  private CallerText() {}

  /**
   * A client_id as a log may show it, in lower case, when it has the form of one; else {@value
   * #MALFORMED_CLIENT_ID}, so a client that swaps its client_id and client_secret does not get its
   * secret written as the actor. Null stays null.
   */
  public static String clientId(String text) {
    if (text == null) {
      return null;
    }
    return isClientId(text) ? text.toLowerCase(Locale.ROOT) : MALFORMED_CLIENT_ID;
  }

  /**
   * Whether {@code text} has {@link #CLIENT_ID_SHAPE}: compared a character at a time rather than
   * by a regular expression, since every token request's audit line asks.
   */
  private static boolean isClientId(String text) {
    if (text.length() != CLIENT_ID_SHAPE.length()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean fits =
          CLIENT_ID_SHAPE.charAt(i) == '-'
              ? c == '-'
              : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      if (!fits) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code text} if at most {@value #MAX_LENGTH} characters, else its start and "..."; null stays
   * null.
   */
  public static String shortened(String text) {
    return text == null || text.length() <= MAX_LENGTH
        ? text
        : text.substring(0, MAX_LENGTH) + "...";
  }
}
