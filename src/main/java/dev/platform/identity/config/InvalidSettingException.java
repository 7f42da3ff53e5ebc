package dev.platform.identity.config;

/** A JNDI entry is missing or invalid; the message names it and says what is wrong. */
public final class InvalidSettingException extends RuntimeException {
  private final String entry;
  private final String problem;

  /** {@code entry} (relative to {@code java:comp/env}) is wrong because of {@code problem}. */
  public InvalidSettingException(String entry, String problem) {
    this(entry, "java:comp/env/" + entry, problem);
  }

  private InvalidSettingException(String entry, String name, String problem) {
    super(name + " " + problem);
    this.entry = entry;
    this.problem = problem;
  }

  /** The entry, relative to {@code java:comp/env}. */
  String entry() {
    return entry;
  }

  /** The same problem, said of {@code name}, where the value was given (a server's global name). */
  InvalidSettingException givenAt(String name) {
    return new InvalidSettingException(entry, name, problem);
  }
}
