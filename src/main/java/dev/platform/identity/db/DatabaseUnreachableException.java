package dev.platform.identity.db;

import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The database cannot be reached at start-up. The message names the JNDI resource and the URL the
 * DataSource reports (never its password), so an operator knows which setting to look at.
 */
public final class DatabaseUnreachableException extends RuntimeException {
  /** A password written into a URL's query or properties, as some drivers allow. */
  private static final Pattern PASSWORD_IN_URL = Pattern.compile("(?i)(password=)[^&;]*");

  private DatabaseUnreachableException(String message, SQLException cause) {
    super(message, cause);
  }

  static DatabaseUnreachableException of(DataSource dataSource, SQLException cause) {
    return new DatabaseUnreachableException(
        "java:comp/env/"
            + Database.DATA_SOURCE
            + " ("
            + url(dataSource)
            + ") cannot be reached: "
            + withoutPassword(String.valueOf(cause.getMessage()), dataSource)
            + "; check its URL, user and password, and that the database is up",
        cause);
  }

  /**
   * The URL as the DataSource tells it: {@code getUrl()} (Tomcat's pool, PostgreSQL's and H2's
   * DataSources) or {@code getURL()}; a server's own wrapper (Payara's) may tell none.
   */
  static String url(DataSource dataSource) {
    for (String getter : new String[] {"getUrl", "getURL"}) {
      Object url = call(dataSource, getter);
      if (url instanceof String text && !text.isBlank()) {
        return withoutPassword(text, dataSource);
      }
    }
    return "URL unknown";
  }

  private static String withoutPassword(String text, DataSource dataSource) {
    String redacted = PASSWORD_IN_URL.matcher(text).replaceAll("$1(hidden)");
    return call(dataSource, "getPassword") instanceof String password && !password.isEmpty()
        ? redacted.replace(password, "(hidden)")
        : redacted;
  }

  private static Object call(DataSource dataSource, String getter) {
    try {
      Method method = dataSource.getClass().getMethod(getter);
      return method.getParameterCount() == 0 ? method.invoke(dataSource) : null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }
}
