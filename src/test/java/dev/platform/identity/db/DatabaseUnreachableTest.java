package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;
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
