package dev.platform.identity.db;

import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.api.migration.JavaMigration;
import org.h2.jdbcx.JdbcDataSource;

/**
 * Real databases for unit tests: H2 in memory, migrated, one per call unless shared. A new one is a
 * copy of a template migrated once per JVM, so each test still starts from a database of its own.
 */
public final class TestDatabases {
  private TestDatabases() {}

  /** A fresh, migrated H2 database in memory. */
  public static Database h2() {
    return Database.open(migrated(h2DataSource("test-" + UUID.randomUUID())));
  }

  /**
   * {@code dataSource}, given the migrated template's schema and rows (as {@code javaMigrations}
   * leave them) when it is an empty in-memory H2 database: {@link Database#open} with the same
   * migrations then finds nothing left to do. Anything else is returned as it is.
   */
  public static DataSource migrated(DataSource dataSource, JavaMigration... javaMigrations) {
    MigratedTemplates.copyInto(dataSource, javaMigrations);
    return dataSource;
  }

  /** A DataSource on the named in-memory H2 database: two with one name share one database. */
  public static JdbcDataSource h2DataSource(String name) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
    dataSource.setUser("sa");
    return dataSource;
  }
}
