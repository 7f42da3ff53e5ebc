package dev.platform.identity.key;

import java.time.Instant;

/**
 * An operator's rotation refused: the published list would pass {@code identity/maxPublishedKeys} .
 * The message says how many keys are listed and when the first of them leaves.
 */
public final class TooManyKeysException extends RuntimeException {
  TooManyKeysException(int listed, int max, Instant firstLeaves) {
    super(
        listed
            + " signing keys are listed and at most "
            + max
            + " may be, one place kept for the scheduled rotation; "
            + (firstLeaves == null
                ? "none leaves the list yet"
                : "the first leaves the list at " + firstLeaves)
            + ": rotate after that, or revoke a compromised key instead",
        null,
        false,
        false);
  }
}
