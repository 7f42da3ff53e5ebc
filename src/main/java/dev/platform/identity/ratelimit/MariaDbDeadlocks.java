package dev.platform.identity.ratelimit;

import com.mysql.cj.jdbc.exceptions.MySQLTransactionRollbackException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
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
    return proxy(
        DataSource.class,
        (self, method, args) -> {
          Object result = call(real, method, args);
          return result instanceof Connection connection ? connection(connection) : result;
        });
  }

  private static Connection connection(Connection real) {
    return proxy(
        Connection.class,
        (self, method, args) -> {
          Object result = call(real, method, args);
          return result instanceof PreparedStatement statement
                  && method.getReturnType() == PreparedStatement.class
              ? statement(statement)
              : result;
        });
  }

  private static PreparedStatement statement(PreparedStatement real) {
    return proxy(
        PreparedStatement.class,
        (self, method, args) -> {
          try {
            return call(real, method, args);
          } catch (SQLTransactionRollbackException e) {
            if (e.getErrorCode() == DEADLOCK && !(e instanceof MySQLTransactionRollbackException)) {
              throw new MySQLTransactionRollbackException(e);
            }
            throw e;
          }
        });
  }

  private static Object call(Object real, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T)
        Proxy.newProxyInstance(
            MariaDbDeadlocks.class.getClassLoader(), new Class<?>[] {type}, handler);
  }
}
