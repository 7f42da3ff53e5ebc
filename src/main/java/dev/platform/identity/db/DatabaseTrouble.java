package dev.platform.identity.db;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;

/**
 * Why database work failed, when the reason is the database's load rather than a fault of the
 * request or the code. Each surface answers both with 503 (the token endpoint: 500 {@code
 * server_error}, SPEC 7.1) and {@code Retry-After}, never an incident.
 */
public enum DatabaseTrouble {
  /** Refused at once: the bulkhead was full, or the pool had no connection within its wait. */
  BUSY,
  /** A statement passed its deadline, or waited too long for a lock. */
  TIMEOUT;

  /** What a client is told to wait before it retries. */
  public static final int RETRY_AFTER_SECONDS = 2;

  /** What each surface tells the client, in its own shape. */
  public static final String MESSAGE =
      "The service's database is busy or slow; retry after " + RETRY_AFTER_SECONDS + " s";

  /** MariaDB's ER_LOCK_WAIT_TIMEOUT. */
  private static final int MARIADB_LOCK_WAIT_TIMEOUT = 1205;

  /** The trouble somewhere in {@code failure}'s chain of causes, if any. */
  public static Optional<DatabaseTrouble> of(Throwable failure) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      if (t instanceof DatabaseBusyException || poolExhausted(t)) {
        return Optional.of(BUSY);
      }
      if (isTimeout(t)) {
        return Optional.of(TIMEOUT);
      }
    }
    return Optional.empty();
  }

  /**
   * A deadline passed: JDBC's {@link SQLTimeoutException}; PostgreSQL's query_canceled (57014,
   * {@code statement_timeout} or a cancel) and lock_not_available (55P03, {@code lock_timeout});
   * H2's cancel (HY008) and lock timeout (HYT00); MariaDB's interrupted statement (70100, its
   * {@code max_statement_time}, which Connector/J also reports as a SQLTimeoutException) and lock
   * wait timeout (error 1205, {@code innodb_lock_wait_timeout}, under the catch-all SQLSTATE
   * HY000); the driver's socket timeout.
   */
  static boolean isTimeout(Throwable t) {
    if (t instanceof SQLTimeoutException || t instanceof SocketTimeoutException) {
      return true;
    }
    if (t instanceof SQLException sql && sql.getSQLState() != null) {
      return switch (sql.getSQLState()) {
        case "57014", "55P03", "HY008", "HYT00", "70100" -> true;
        case "HY000" -> sql.getErrorCode() == MARIADB_LOCK_WAIT_TIMEOUT;
        default -> false;
      };
    }
    return false;
  }

  /**
   * The connection is lost (SQLState class 08, or the driver's transient or non-transient
   * connection exceptions): the database is down or unreachable, not merely slow.
   */
  static boolean isConnectionFailure(Throwable t) {
    if (t instanceof DatabaseBusyException) {
      return false;
    }
    if (t instanceof java.sql.SQLTransientConnectionException
        || t instanceof java.sql.SQLNonTransientConnectionException) {
      return true;
    }
    return t instanceof SQLException sql
        && sql.getSQLState() != null
        && sql.getSQLState().startsWith("08");
  }

  /**
   * The pool gave no connection within its wait: Tomcat's DBCP ("Timeout waiting for idle object")
   * or Payara's ("expired max-wait-time").
   */
  private static boolean poolExhausted(Throwable t) {
    String message = t.getMessage();
    return message != null
        && (message.contains("Timeout waiting for idle object")
            || message.contains("max-wait-time"));
  }
}
