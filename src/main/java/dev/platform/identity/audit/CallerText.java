package dev.platform.identity.audit;

/**
 * Text a caller sent (a client_id, a scope, a kid), shortened before it is written back in an error
 * or a log line, so a stranger's long input cannot swell either.
 */
public final class CallerText {
  /** The longest text shown; longer text is cut here and ends in {@code ...}. */
  static final int MAX_LENGTH = 100;

  private CallerText() {}

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
