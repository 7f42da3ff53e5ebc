package dev.platform.identity.config;

/** A JNDI entry is missing or invalid; the message names it and says what is wrong. */
public final class InvalidSettingException extends RuntimeException {
  /** {@code entry} (relative to {@code java:comp/env}) is wrong because of {@code problem}. */
  public InvalidSettingException(String entry, String problem) {
    super("java:comp/env/" + entry + " " + problem);
  }
}
