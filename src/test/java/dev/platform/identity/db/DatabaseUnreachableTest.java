package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.apache.tomcat.dbcp.dbcp2.BasicDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class DatabaseUnreachableTest {
  static final String PASSWORD = "db-password-never-shown-4711";

  /** A port that was free a moment ago: nothing listens there. */
  static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void whenPostgresCannotBeReachedThenTheResourceAndItsUrlAreNamedAndThePasswordIsNot()
      throws IOException {
    int port = closedPort();
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setServerNames(new String[] {"127.0.0.1"});
    dataSource.setPortNumbers(new int[] {port});
    dataSource.setDatabaseName("identity");
    dataSource.setUser("identity");
    dataSource.setPassword(PASSWORD);
    dataSource.setConnectTimeout(2);

    DatabaseUnreachableException e =
        assertThrows(DatabaseUnreachableException.class, () -> Database.open(dataSource));

    String message = e.getMessage();
    assertTrue(message.startsWith("java:comp/env/jdbc/identity (jdbc:postgresql://"), message);
    assertTrue(message.contains("127.0.0.1:" + port + "/identity"), message);
    assertFalse(message.contains(PASSWORD), message);
    assertFalse(String.valueOf(e.getCause().getMessage()).contains(PASSWORD));
  }

  /** Issue 42: the same for MariaDB, its password in the URL as well as set on the DataSource. */
  @Test
  void whenMariaDbCannotBeReachedThenTheResourceAndItsUrlAreNamedAndNeitherPasswordIs()
      throws Exception {
    int port = closedPort();
    org.mariadb.jdbc.MariaDbDataSource dataSource =
        new org.mariadb.jdbc.MariaDbDataSource(
            "jdbc:mariadb://127.0.0.1:"
                + port
                + "/identity?connectionTimeZone=UTC&preserveInstants=true&connectTimeout=2000"
                + "&password=url-password-4711");
    dataSource.setUser("identity");
    dataSource.setPassword(PASSWORD);

    DatabaseUnreachableException e =
        assertThrows(DatabaseUnreachableException.class, () -> Database.open(dataSource));

    String message = e.getMessage();
    assertTrue(
        message.startsWith(
            "java:comp/env/jdbc/identity (jdbc:mariadb://127.0.0.1:" + port + "/identity?"),
        message);
    assertTrue(message.contains(") cannot be reached: "), message);
    String trace = printed(e);
    assertNoPassword(PASSWORD, trace);
    assertNoPassword("url-password-4711", trace);
  }

  @Test
  void whenTheUrlCarriesThePasswordThenItIsHidden() {
    DataSource withUrl =
        new Unreachable() {
          @SuppressWarnings("unused")
          public String getUrl() {
            return "jdbc:postgresql://db:5432/identity?user=identity&password=" + PASSWORD;
          }
        };

    assertEquals(
        "jdbc:postgresql://db:5432/identity?user=identity&password=(hidden)",
        DatabaseUnreachableException.url(withUrl));
    assertEquals("URL unknown", DatabaseUnreachableException.url(new Unreachable()));
  }

  @Test
  void whenTheDataSourceTellsNoUrlThenTheMessageSaysSo() {
    DatabaseUnreachableException e =
        assertThrows(DatabaseUnreachableException.class, () -> Database.open(new Unreachable()));

    assertTrue(
        e.getMessage().startsWith("java:comp/env/jdbc/identity (URL unknown) cannot be reached:"),
        e.getMessage());
  }

  // Security review F3, F6: the whole printed trace, causes included, never shows a password.

  /** The trace as a log prints it, "Caused by:" lines and all. */
  static String printed(Throwable e) {
    StringWriter text = new StringWriter();
    e.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  static void assertNoPassword(String password, String text) {
    for (String spelling :
        List.of(
            password,
            password.toLowerCase(Locale.ROOT),
            password.toUpperCase(Locale.ROOT),
            URLEncoder.encode(password, StandardCharsets.UTF_8))) {
      assertFalse(text.contains(spelling), "'" + spelling + "' in:\n" + text);
    }
  }

  @Test
  void whenThePoolEchoesAUrlWithAPasswordThenNoLineOfTheTraceShowsIt() {
    BasicDataSource dataSource = new BasicDataSource();
    dataSource.setUrl("jdbc:nosuch://h/?user=identity&password=Sekr3tF");
    dataSource.setPassword("Sekr3tF");

    DatabaseUnreachableException e =
        assertThrows(DatabaseUnreachableException.class, () -> Database.open(dataSource));

    String trace = printed(e);
    assertNoPassword("Sekr3tF", trace);
    assertTrue(trace.contains("password=(hidden)"), trace);
    assertTrue(trace.contains("Caused by: "), trace);
  }

  @Test
  void whenTheUrlCarriesUserAndPasswordBeforeTheHostThenNoLineOfTheTraceShowsIt() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl("jdbc:postgresql://u:Sekr3tC@127.0.0.1:1/db");
    dataSource.setConnectTimeout(2);

    DatabaseUnreachableException e =
        assertThrows(DatabaseUnreachableException.class, () -> Database.open(dataSource));

    String trace = printed(e);
    assertNoPassword("Sekr3tC", trace);
    assertTrue(trace.contains("u:(hidden)@"), trace);
  }

  @Test
  void whenTheUrlsPasswordHoldsAParenthesisOrSemicolonThenNoPartOfItShows() {
    String password = "Ab)TAIL-LEAK-1;x'Q";
    DataSource withUrl =
        new Unreachable() {
          @SuppressWarnings("unused")
          public String getUrl() {
            return "jdbc:mariadb://db:3306/identity?user=identity&password="
                + password
                + "&connectionTimeZone=UTC";
          }
        };

    String url = DatabaseUnreachableException.url(withUrl);
    String echoed =
        DatabaseUnreachableException.withoutPassword(
            "Access denied for URL 'jdbc:mariadb://db:3306/identity?password=" + password + "'",
            withUrl);

    assertEquals(
        "jdbc:mariadb://db:3306/identity?user=identity&password=(hidden)&connectionTimeZone=UTC",
        url);
    assertFalse(echoed.contains("TAIL-LEAK"), echoed);
    assertFalse(echoed.contains(";x"), echoed);
  }

  @Test
  void whenMessagesEndThePasswordWithAQuoteParenthesisOrSpaceThenWhatFollowsIsKept() {
    Unreachable dataSource = new Unreachable();

    assertEquals(
        "URL 'jdbc:x://h/?password=(hidden)' (driver x) password=(hidden) for user identity",
        DatabaseUnreachableException.withoutPassword(
            "URL 'jdbc:x://h/?password=Sekr3tF' (driver x) password=Sekr3tF for user identity",
            dataSource));
  }

  @Test
  void whenThePasswordIsShortThenTheMessageIsNotGarbledAroundIt() {
    DataSource shortPassword =
        new Unreachable() {
          @SuppressWarnings("unused")
          public String getPassword() {
            return "id";
          }
        };

    assertEquals(
        "FATAL: database \"identity\" does not exist",
        DatabaseUnreachableException.withoutPassword(
            "FATAL: database \"identity\" does not exist", shortPassword));
  }

  /** A DataSource of a server's own kind, whose connections always fail. */
  public static class Unreachable implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      throw new SQLException("connection refused");
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
