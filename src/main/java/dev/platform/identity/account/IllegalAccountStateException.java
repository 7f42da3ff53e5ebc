package dev.platform.identity.account;

/** A lifecycle change that the account's state does not allow, such as reactivating a deletion. */
final class IllegalAccountStateException extends RuntimeException {
  IllegalAccountStateException(String message) {
    super(message);
  }
}
