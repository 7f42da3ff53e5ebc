package dev.platform.identity.db;

/**
 * The database answers but cannot hold the service's data correctly: another product, or a MariaDB
 * connection that would store times in another zone. Stops the start, saying what to change.
 */
final class UnsuitableDatabaseException extends IllegalStateException {
  UnsuitableDatabaseException(String message) {
    super(message);
  }
}
