package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The databases the service runs on, told apart by the name their driver reports. Their SQL is the
 * same except where a method here says otherwise (docs/design-choices.md "MariaDB").
 */
public enum Vendor {
  /** The embedded default, for trying the service out. */
  H2("H2", "classpath:db/h2-postgresql", "\""),
  /** Production. */
  POSTGRESQL("PostgreSQL", "classpath:db/h2-postgresql", "\""),
  /** Production, issue 42: MariaDB 10.11 through MariaDB Connector/J. */
  MARIADB("MariaDB", "classpath:db/mariadb", "`");

  /** The scripts every database runs as they are. */
  private static final String COMMON = "classpath:db/migration";

  private final String productName;
  private final String scripts;
  private final String quote;

  Vendor(String productName, String scripts, String quote) {
    this.productName = productName;
    this.scripts = scripts;
    this.quote = quote;
  }

  /** The database behind {@code connection}. */
  public static Vendor of(Connection connection) throws SQLException {
    return named(connection.getMetaData().getDatabaseProductName());
  }

  /** The database whose driver reports {@code productName}; any other is refused by name. */
  static Vendor named(String productName) {
    for (Vendor vendor : values()) {
      if (vendor.productName.equals(productName)) {
        return vendor;
      }
    }
    throw new UnsuitableDatabaseException(
        "the database is "
            + productName
            + ", which this service does not run on: it runs on H2,"
            + " PostgreSQL and MariaDB (docs/configuration.md; MySQL is untested)");
  }

  /**
   * Flyway's locations for this database: the scripts all share, and the folder of those whose SQL
   * differs (H2 and PostgreSQL share theirs, written before MariaDB, unchanged since).
   */
  public String[] migrationLocations() {
    return new String[] {COMMON, scripts};
  }

  /**
   * {@code identifier} quoted, so its case is kept: H2 would read an unquoted lower-case name as
   * upper case. MariaDB quotes with a backtick (a double quote starts a string there).
   */
  String quoted(String identifier) {
    return quote + identifier + quote;
  }

  /** Whether a rate-limit bucket can live here for every node (Bucket4j has no H2 store). */
  public boolean sharesRateLimits() {
    return this != H2;
  }

  /**
   * Whether {@code e} is an insert refused for a key already taken: SQLSTATE 23505 on PostgreSQL
   * and H2; on MariaDB, whose SQLSTATE 23000 covers every integrity error, error 1062
   * (ER_DUP_ENTRY).
   */
  public boolean isDuplicateKey(SQLException e) {
    return this == MARIADB ? e.getErrorCode() == 1062 : "23505".equals(e.getSQLState());
  }

  /**
   * A DELETE of at most {@code ?2} rows of {@code table} whose {@code column} is before {@code ?1}.
   * MariaDB takes DELETE ... LIMIT, and refuses a LIMIT in an IN subquery or a subquery on the
   * table it deletes from; the others take no LIMIT on a DELETE, so pick the rows by key in a
   * subquery.
   */
  public String deleteBatchBefore(String table, String column, String key) {
    return this == MARIADB
        ? "delete from " + table + " where " + column + " < ? limit ?"
        : "delete from "
            + table
            + " where ("
            + key
            + ") in (select "
            + key
            + " from "
            + table
            + " where "
            + column
            + " < ? fetch first ? rows only)";
  }
}
