package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A new, empty database on the PostgreSQL server of {@code identity.postgres.url} (set by {@code
 * -Ppostgres}), dropped again on close: one per test, so runs never share state.
 */
public final class FreshPostgres implements AutoCloseable {
  private final String adminUrl = System.getProperty("identity.postgres.url");
  private final String name;

  private FreshPostgres(String prefix) throws SQLException {
    this.name = prefix + "_" + UUID.randomUUID().toString().replace("-", "");
    admin("create database " + name);
  }

  /** Creates the database; its name starts with {@code prefix}. */
  public static FreshPostgres create(String prefix) throws SQLException {
    return new FreshPostgres(prefix);
  }

  /** A new DataSource on the database (each call: another node's connections). */
  public PGSimpleDataSource dataSource() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(adminUrl.replaceFirst("/[^/?]*(\\?|$)", "/" + name + "$1"));
    return dataSource;
  }

  @Override
  public void close() throws SQLException {
    admin("drop database if exists " + name + " with (force)");
  }

  private void admin(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(adminUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
