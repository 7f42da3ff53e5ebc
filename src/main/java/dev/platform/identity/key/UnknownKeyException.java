package dev.platform.identity.key;

/** SPEC 4.3, 7.3: no published key has this id (unknown, not yet published, expired or revoked). */
final class UnknownKeyException extends RuntimeException {
  UnknownKeyException(String kid) {
    super("no published signing key " + kid);
  }
}
