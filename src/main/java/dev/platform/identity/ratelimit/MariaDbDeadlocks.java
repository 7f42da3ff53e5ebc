package dev.platform.identity.ratelimit;

import com.mysql.cj.jdbc.exceptions.MySQLTransactionRollbackException;
import dev.platform.identity.db.JdbcProxies;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLTransactionRollbackException;
import javax.sql.DataSource;

/**
 * The DataSource that Bucket4j's MySQL module gets on MariaDB: a statement that MariaDB rolls back
 * as a deadlock (error 1213, which InnoDB's gap locks make likely when two nodes create the same
 * bucket at once) fails with the exception Bucket4j catches to retry, {@link
 * MySQLTransactionRollbackException}, in place of MariaDB Connector/J's. Every other call passes
 * through unchanged.
 */
final class MariaDbDeadlocks {
  /** MariaDB's ER_LOCK_DEADLOCK. */
  static final int DEADLOCK = 1213;

  private MariaDbDeadlocks() {}

  static DataSource wrap(DataSource real) {
    return JdbcProxies.of(
        DataSource.class,
        (self, method, args) -> {
          Object result = JdbcProxies.call(real, method, args);
          return result instanceof Connection connection ? connection(connection) : result;
        });
  }

  private static Connection connection(Connection real) {
    return JdbcProxies.of(
        Connection.class,
        (self, method, args) -> {
          Object result = JdbcProxies.call(real, method, args);
          return result instanceof PreparedStatement statement
                  && method.getReturnType() == PreparedStatement.class
              ? statement(statement)
              : result;
        });
  }

  private static PreparedStatement statement(PreparedStatement real) {
    return JdbcProxies.of(
        PreparedStatement.class,
        (self, method, args) -> {
          try {
            return JdbcProxies.call(real, method, args);
          } catch (SQLTransactionRollbackException e) {
            if (e.getErrorCode() == DEADLOCK && !(e instanceof MySQLTransactionRollbackException)) {
              throw new MySQLTransactionRollbackException(e);
            }
            throw e;
          }
        });
  }
}
