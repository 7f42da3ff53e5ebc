package dev.platform.identity.db;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The {@link DatabaseGuard} as JDBC sees it: a DataSource whose connections each hold a permit
 * until closed, and whose statements each carry the deadline. A proxy, so that every user of the
 * pool (EclipseLink, Bucket4j, the service's own JDBC) is covered without knowing of it.
 */
final class GuardedDataSource {
  private GuardedDataSource() {}

  static DataSource wrap(DataSource real, DatabaseGuard guard) {
    return JdbcProxies.of(
        DataSource.class,
        (self, method, args) ->
            method.getName().equals("getConnection")
                ? connection(real, guard, method, args)
                : JdbcProxies.call(real, method, args));
  }

  private static Connection connection(
      DataSource real, DatabaseGuard guard, Method method, Object[] args) throws Throwable {
    if (!guard.enter()) {
      throw new DatabaseBusyException(guard.concurrency());
    }
    Connection connection;
    try {
      connection = (Connection) JdbcProxies.call(real, method, args);
    } catch (Throwable e) {
      guard.leave();
      if (e instanceof SQLException sql) {
        guard.failed(sql);
      }
      throw e;
    }
    return guarded(connection, guard);
  }

  private static Connection guarded(Connection real, DatabaseGuard guard) {
    AtomicBoolean held = new AtomicBoolean(true);
    Connection[] self = new Connection[1];
    self[0] =
        JdbcProxies.of(
            Connection.class,
            (proxy, method, args) -> {
              String name = method.getName();
              if (name.equals("close") || name.equals("abort")) {
                try {
                  return JdbcProxies.call(real, method, args);
                } finally {
                  if (held.compareAndSet(true, false)) {
                    guard.leave();
                  }
                }
              }
              Object result = observed(real, method, args, guard);
              if (result instanceof Statement statement
                  && Statement.class.isAssignableFrom(method.getReturnType())) {
                return statement(statement, method.getReturnType(), self[0], guard);
              }
              return result;
            });
    return self[0];
  }

  private static Object statement(
      Statement real, Class<?> type, Connection connection, DatabaseGuard guard)
      throws SQLException {
    if (guard.timeoutSeconds() > 0) {
      timeout(real, guard.timeoutSeconds());
    }
    return JdbcProxies.of(
        type,
        (self, method, args) ->
            switch (method.getName()) {
              case "getConnection" -> connection;
              case "setQueryTimeout" ->
                  real.getQueryTimeout() == (Integer) args[0]
                      ? null
                      : observed(real, method, args, guard);
              default -> observed(real, method, args, guard);
            });
  }

  /**
   * Sets {@code statement}'s timeout unless it has that timeout already (so does the proxy when
   * EclipseLink sets its query timeout, the same deadline, on each statement). H2 keeps the timeout
   * per connection, not per statement, and runs {@code SET QUERY_TIMEOUT} on every {@code
   * setQueryTimeout}; every {@code SET} empties the query cache of every connection, so setting the
   * same deadline on each statement had H2 parse each statement anew, a tenth of a token request's
   * CPU (docs/performance.md). Asking first is a field read in H2 and in PostgreSQL's driver.
   */
  static void timeout(Statement statement, int seconds) throws SQLException {
    if (statement.getQueryTimeout() != seconds) {
      statement.setQueryTimeout(seconds);
    }
  }

  /** Calls through, telling the guard of a failure. */
  private static Object observed(Object real, Method method, Object[] args, DatabaseGuard guard)
      throws Throwable {
    try {
      return JdbcProxies.call(real, method, args);
    } catch (SQLException e) {
      guard.failed(e);
      throw e;
    }
  }
}
