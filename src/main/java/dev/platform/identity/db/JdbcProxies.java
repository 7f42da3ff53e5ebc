package dev.platform.identity.db;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * The two steps every JDBC wrapper of the service takes ({@link GuardedDataSource}, the rate-limit
 * store's MariaDB deadlocks): a proxy of one JDBC interface, and a call through to the real object
 * that throws what the real method threw.
 */
public final class JdbcProxies {
  private JdbcProxies() {}

  /** A proxy of {@code type} whose every call goes to {@code handler}. */
  @SuppressWarnings("unchecked")
  public static <T> T of(Class<?> type, InvocationHandler handler) {
    return (T)
        Proxy.newProxyInstance(JdbcProxies.class.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /** Calls {@code method} on {@code real}, throwing its own exception rather than a wrapper. */
  public static Object call(Object real, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
