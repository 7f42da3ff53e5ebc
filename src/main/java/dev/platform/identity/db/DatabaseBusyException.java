package dev.platform.identity.db;

import java.sql.SQLTransientConnectionException;

/**
 * Database work refused at once because {@code identity/databaseConcurrency} units of it are under
 * way already. An {@link java.sql.SQLException}, so that it travels through JDBC users (Bucket4j,
 * EclipseLink) as their own failures do; {@link DatabaseTrouble#of} finds it in the chain. No stack
 * trace: it is an answer to load, not a fault.
 */
final class DatabaseBusyException extends SQLTransientConnectionException {
  DatabaseBusyException(int concurrency) {
    super(
        "refused: "
            + concurrency
            + " units of database work are under way (identity/databaseConcurrency)");
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
