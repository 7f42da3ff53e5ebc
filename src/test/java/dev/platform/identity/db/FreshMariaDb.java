package dev.platform.identity.db;

import java.sql.SQLException;
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
    return "driverClassName=\"org.mariadb.jdbc.Driver\" url=\"jdbc:mariadb://127.0.0.1:"
        + port
        + "/"
        + name()
        + "?"
        + URL_OPTIONS.replace("&", "&amp;")
        + "\" username=\"root\" password=\"\"";
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
