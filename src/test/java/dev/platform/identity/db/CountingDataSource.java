package dev.platform.identity.db;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** Wraps a real DataSource and records the SQL of every statement run through it. */
public final class CountingDataSource {
  private final List<String> statements = new ArrayList<>();
  private final DataSource dataSource;

  public CountingDataSource(DataSource real) {
    this.dataSource = proxy(DataSource.class, real, this::onDataSource);
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** The SQL run since the last {@link #reset()}, in order. */
  public synchronized List<String> statements() {
    return List.copyOf(statements);
  }

  public synchronized void reset() {
    statements.clear();
  }

  private synchronized void record(String sql) {
    statements.add(sql);
  }

  private Object onDataSource(Object real, String method, Object[] args, Object result) {
    return result instanceof Connection connection
        ? proxy(Connection.class, connection, this::onConnection)
        : result;
  }

  private Object onConnection(Object real, String method, Object[] args, Object result) {
    if (method.startsWith("prepare") && args != null && args[0] instanceof String sql) {
      record(sql);
      return result;
    }
    if (result instanceof Statement statement && !method.startsWith("prepare")) {
      return proxy(Statement.class, statement, this::onStatement);
    }
    return result;
  }

  private Object onStatement(Object real, String method, Object[] args, Object result) {
    if (method.startsWith("execute") && args != null && args[0] instanceof String sql) {
      record(sql);
    }
    return result;
  }

  private interface After {
    Object apply(Object real, String method, Object[] args, Object result);
  }

  private static <T> T proxy(Class<T> type, Object real, After after) {
    InvocationHandler handler =
        (self, method, args) -> {
          try {
            Object result = method.invoke(real, args);
            return after.apply(real, method.getName(), args, result);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
