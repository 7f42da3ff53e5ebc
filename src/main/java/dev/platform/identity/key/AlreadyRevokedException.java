package dev.platform.identity.key;

/**
 * A revocation of a key that is revoked already, found under the lock that serializes key changes:
 * of several revocations of one key at the same moment, one succeeds and the others are told this,
 * and only one successor is made for a key that was signing.
 */
public final class AlreadyRevokedException extends RuntimeException {
  AlreadyRevokedException(String kid) {
    super("signing key " + SigningKeys.printable(kid) + " is already revoked", null, false, false);
  }
}
