package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A new, empty database on the PostgreSQL server of {@code identity.postgres.url} (set by {@code
 * -Ppostgres}), dropped again on close: one per test, so runs never share state.
 */
public final class FreshPostgres extends FreshDatabase {
  private FreshPostgres(String prefix) throws SQLException {
    super(DatabaseServer.POSTGRESQL, prefix);
  }

  /** Creates the database; its name starts with {@code prefix}. */
  public static FreshPostgres create(String prefix) throws SQLException {
    return new FreshPostgres(prefix);
  }

  @Override
  public PGSimpleDataSource dataSource() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(server().url().replaceFirst("/[^/?]*(\\?|$)", "/" + name() + "$1"));
    return dataSource;
  }

  @Override
  public String resourceAttributes(int port) {
    return "driverClassName=\"org.postgresql.Driver\" url=\"jdbc:postgresql://127.0.0.1:"
        + port
        + "/"
        + name()
        + "\" username=\"postgres\" password=\"\"";
  }

  @Override
  public String resourceAttributes(int port, List<String> urlOptions) {
    String attributes = resourceAttributes(port);
    return urlOptions.isEmpty()
        ? attributes
        : attributes.replace(
            "/" + name() + "\"", "/" + name() + "?" + String.join("&amp;", urlOptions) + "\"");
  }

  @Override
  public String socketTimeout(Duration timeout) {
    return "socketTimeout=" + timeout.toSeconds();
  }

  /**
   * None: the PostgreSQL ITs have always run on the JDBC deadline alone (the production examples
   * add {@code options=-c statement_timeout=10s -c lock_timeout=3s}).
   */
  @Override
  public List<String> serverTimeouts() {
    return List.of();
  }

  @Override
  public void lockTable(Connection connection, String table) throws SQLException {
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("lock table " + table + " in access exclusive mode");
    }
  }

  @Override
  public void unlockTables(Connection connection) throws SQLException {
    connection.rollback();
  }

  @Override
  public int otherSessions(Connection monitor, Connection... excluded) throws SQLException {
    Integer[] pids = new Integer[excluded.length];
    for (int i = 0; i < excluded.length; i++) {
      try (Statement statement = excluded[i].createStatement();
          ResultSet row = statement.executeQuery("select pg_backend_pid()")) {
        row.next();
        pids[i] = row.getInt(1);
      }
    }
    try (PreparedStatement count =
        monitor.prepareStatement(
            "select count(*) from pg_stat_activity where datname = ?"
                + " and pid <> pg_backend_pid() and pid <> all(?)")) {
      count.setString(1, name());
      count.setArray(2, monitor.createArrayOf("integer", pids));
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getInt(1);
      }
    }
  }

  @Override
  String createSql(String name) {
    return "create database " + name;
  }

  @Override
  String dropSql(String name) {
    return "drop database if exists " + name + " with (force)";
  }
}
