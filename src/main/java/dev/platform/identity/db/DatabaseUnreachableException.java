package dev.platform.identity.db;

import java.lang.reflect.Method;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The database cannot be reached at start-up. The message names the JNDI resource and the URL the
 * DataSource reports (never its password), so an operator knows which setting to look at.
 */
final class DatabaseUnreachableException extends RuntimeException {
  /** A password written into a URL's query or properties, up to the next separator or quote. */
  private static final Pattern PASSWORD_IN_URL =
      Pattern.compile("(?i)(password=)(?!\\(hidden\\))[^&;'\")\\s]*");

  /** A password's whole value in the DataSource's own URL, up to the next query separator. */
  private static final Pattern PASSWORD_VALUE = Pattern.compile("(?i)password=([^&]*)");

  /** {@code user:password@host}, in a URL ({@code //u:p@h}) or a host name echoed from one. */
  private static final Pattern USER_INFO = Pattern.compile("([^\\s:/@'\"]*):[^\\s@/'\"]*@");

  /** Shorter passwords are not searched for: "db" would garble the text and show where it is. */
  private static final int MIN_LITERAL_PASSWORD = 8;

  /** How many causes are copied; a longer chain is cut. */
  private static final int MAX_CAUSES = 20;

  private DatabaseUnreachableException(String message, Throwable cause) {
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
        redacted(cause, dataSource));
  }

  /**
   * A copy of the cause chain that keeps each class name, redacted message and stack, never the
   * original throwables: a driver's message (DBCP: "... for connect URL '...password=...'") or a
   * cause's ({@code UnknownHostException: user:password@host}) would print unredacted in "Caused
   * by:" lines.
   */
  private static Throwable redacted(Throwable cause, DataSource dataSource) {
    List<Throwable> chain = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = cause; t != null && chain.size() < MAX_CAUSES && seen.add(t); ) {
      chain.add(t);
      t = t.getCause();
    }
    Throwable copy = null;
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable original = chain.get(i);
      String message = original.getMessage();
      copy =
          new RedactedCause(
              original.getClass().getName()
                  + (message == null ? "" : ": " + withoutPassword(message, dataSource)),
              copy,
              original.getStackTrace());
    }
    return copy;
  }

  /** One cause as it may be printed: its class name and redacted message, its stack. */
  static final class RedactedCause extends Exception {
    RedactedCause(String message, Throwable cause, StackTraceElement[] stack) {
      super(message, cause, false, true);
      setStackTrace(stack);
    }
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

  static String withoutPassword(String text, DataSource dataSource) {
    String redacted = text;
    for (String password : passwordsInUrl(dataSource)) {
      redacted = redacted.replace(password, "(hidden)");
    }
    redacted = PASSWORD_IN_URL.matcher(redacted).replaceAll("$1(hidden)");
    redacted = USER_INFO.matcher(redacted).replaceAll("$1:(hidden)@");
    return call(dataSource, "getPassword") instanceof String password
            && password.length() >= MIN_LITERAL_PASSWORD
        ? redacted.replace(password, "(hidden)")
        : redacted;
  }

  /**
   * The passwords the DataSource's own URL carries, each up to the next {@code &}: a password may
   * hold a quote, a parenthesis or a semicolon, where {@link #PASSWORD_IN_URL} stops, and its tail
   * would show (the attacker review of issue 42). Shorter ones than {@link #MIN_LITERAL_PASSWORD}
   * are left to the pattern, as the attribute's are.
   */
  private static List<String> passwordsInUrl(DataSource dataSource) {
    List<String> passwords = new ArrayList<>();
    for (String getter : new String[] {"getUrl", "getURL"}) {
      if (call(dataSource, getter) instanceof String url) {
        Matcher value = PASSWORD_VALUE.matcher(url);
        while (value.find()) {
          if (value.group(1).length() >= MIN_LITERAL_PASSWORD) {
            passwords.add(value.group(1));
          }
        }
      }
    }
    return passwords;
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
