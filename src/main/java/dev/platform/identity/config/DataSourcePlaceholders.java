package dev.platform.identity.config;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import javax.sql.DataSource;

/**
 * Tomcat leaves a {@code ${name}} in a {@code <Resource>} attribute as it is when no system
 * property of that name exists, and its pool then connects with the literal text as the password: a
 * database that checks passwords refuses it later, without naming the property. So the DataSource's
 * URL, user and password are checked at start, before the first connection, where the pool tells
 * them: Tomcat's DBCP ({@code getUrl}, {@code getUsername}, {@code getPassword}), PostgreSQL's and
 * H2's DataSources. Payara's wrapper ({@code com.sun.gjc.spi.jdbc40.DataSource40}) has none of
 * these getters, so there the check finds nothing to read.
 */
public final class DataSourcePlaceholders {
  /** Each part of the connection, with the getters that tell it in the pools named above. */
  private static final Map<String, List<String>> GETTERS =
      Map.of(
          "url", List.of("getUrl", "getURL"),
          "username", List.of("getUsername", "getUser", "getUserName"),
          "password", List.of("getPassword"));

  private DataSourcePlaceholders() {}

  /**
   * Fails naming {@code entry} (the resource, relative to {@code java:comp/env}) and the property
   * when the URL, user or password holds an unresolved {@code ${...}}; the password's text is shown
   * only when all of it is the placeholder.
   */
  public static void check(String entry, DataSource dataSource) {
    for (String part : List.of("url", "username", "password")) {
      for (String getter : GETTERS.get(part)) {
        if (call(dataSource, getter) instanceof String value) {
          refuse(entry, part, value);
          break;
        }
      }
    }
  }

  private static void refuse(String entry, String part, String value) {
    Matcher placeholder = JndiSettings.PLACEHOLDER.matcher(value);
    if (!placeholder.find()) {
      return;
    }
    String name = placeholder.group(1);
    boolean showable =
        JndiSettings.PLACEHOLDER_NAME.matcher(name).matches()
            && (!part.equals("password") || placeholder.group().equals(value));
    if (!showable) {
      throw new InvalidSettingException(
          entry, "has a " + part + " with an unresolved ${...} placeholder in it");
    }
    String missing =
        name.startsWith("ENV=")
            ? "no environment variable " + name.substring(4) + " is set"
            : "no system property " + name + " is set (Tomcat: conf/catalina.properties)";
    throw new InvalidSettingException(
        entry,
        "has "
            + part
            + "=\""
            + placeholder.group()
            + "\" in its resource, an unresolved placeholder: "
            + missing);
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
