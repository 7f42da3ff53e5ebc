package dev.platform.identity.console;

import java.util.List;

/**
 * What every console page's frame shows: its title, where the console is, the session's CSRF token
 * for the forms (null without a session) and the sections the caller may open.
 *
 * @param base the console's path, with the context path: every link starts with it
 */
public record Frame(String title, String base, String csrf, String caller, List<Section> sections) {
  /** A section of the navigation; {@code current} marks the page's own. */
  public record Section(String label, String href, boolean current) {}

  /** The frame of a page shown without a session: the login form, a refusal. */
  static Frame anonymous(String title, String base) {
    return new Frame(title, base, null, null, List.of());
  }
}
