package dev.platform.identity.db;

import java.sql.SQLException;
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
  String createSql(String name) {
    return "create database " + name;
  }

  @Override
  String dropSql(String name) {
    return "drop database if exists " + name + " with (force)";
  }
}
