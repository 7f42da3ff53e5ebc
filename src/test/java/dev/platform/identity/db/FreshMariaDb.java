package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A new, empty database on the MariaDB server of {@code identity.mariadb.url} (set by {@code
 * -Pmariadb}), dropped again on close. Its default collation is MariaDB's case-insensitive one, as
 * a DBA's {@code create database} would leave it: the migrations must set their own.
 */
public final class FreshMariaDb extends FreshDatabase {
  /** What the service requires of the URL (docs/configuration.md "MariaDB"). */
  public static final String URL_OPTIONS = "connectionTimeZone=UTC&preserveInstants=true";

  private FreshMariaDb(String prefix) throws SQLException {
    super(DatabaseServer.MARIADB, prefix);
  }

  /** Creates the database; its name starts with {@code prefix}. */
  public static FreshMariaDb create(String prefix) throws SQLException {
    return new FreshMariaDb(prefix);
  }

  @Override
  public MariaDbDataSource dataSource() {
    try {
      return new MariaDbDataSource(url(3306));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The URL of this database with the service's options, the server reached at {@code port}. */
  public String url(int port) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + name() + "?user=root&" + URL_OPTIONS;
  }

  @Override
  public String resourceAttributes(int port) {
    return resourceAttributes(port, List.of());
  }

  @Override
  public String resourceAttributes(int port, List<String> urlOptions) {
    List<String> options = new ArrayList<>(List.of(URL_OPTIONS.split("&")));
    options.addAll(urlOptions);
    return "driverClassName=\"org.mariadb.jdbc.Driver\" url=\"jdbc:mariadb://127.0.0.1:"
        + port
        + "/"
        + name()
        + "?"
        + String.join("&amp;", options)
        + "\" username=\"root\" password=\"\"";
  }

  /** In milliseconds, unlike PostgreSQL's driver. */
  @Override
  public String socketTimeout(Duration timeout) {
    return "socketTimeout=" + timeout.toMillis();
  }

  /**
   * MariaDB's own, mirroring PostgreSQL's production {@code statement_timeout=10s} and {@code
   * lock_timeout=3s}: {@code max_statement_time} (SQLSTATE 70100), and the waits for a row lock
   * ({@code innodb_lock_wait_timeout}) and for a table's metadata lock ({@code lock_wait_timeout},
   * whose default is a day), both error 1205.
   */
  @Override
  public List<String> serverTimeouts() {
    return List.of(
        "sessionVariables=max_statement_time=10,innodb_lock_wait_timeout=3,lock_wait_timeout=3");
  }

  /**
   * {@code LOCK TABLES ... WRITE}: InnoDB's plain reads take no row lock, so a row lock would not
   * do.
   */
  @Override
  public void lockTable(Connection connection, String table) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("lock tables " + table + " write");
    }
  }

  @Override
  public void unlockTables(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("unlock tables");
    }
  }

  @Override
  public int otherSessions(Connection monitor, Connection... excluded) throws SQLException {
    List<Long> ids = new ArrayList<>();
    for (Connection connection : excluded) {
      try (Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery("select connection_id()")) {
        row.next();
        ids.add(row.getLong(1));
      }
    }
    StringBuilder sql =
        new StringBuilder(
            "select count(*) from information_schema.processlist where db = ?"
                + " and id <> connection_id()");
    for (Long id : ids) {
      sql.append(" and id <> ").append(id);
    }
    try (PreparedStatement count = monitor.prepareStatement(sql.toString())) {
      count.setString(1, name());
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getInt(1);
      }
    }
  }

  @Override
  String createSql(String name) {
    return "create database " + name + " character set utf8mb4 collate utf8mb4_general_ci";
  }

  @Override
  String dropSql(String name) {
    return "drop database if exists " + name;
  }
}
