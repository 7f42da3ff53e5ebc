package dev.platform.identity.db;

import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;

/** Real databases for unit tests: H2 in memory, migrated, one per call unless shared. */
public final class TestDatabases {
  private TestDatabases() {}

  /** A fresh, migrated H2 database in memory. */
  public static Database h2() {
    return Database.open(h2DataSource("test-" + UUID.randomUUID()));
  }

  /** A DataSource on the named in-memory H2 database: two with one name share one database. */
  public static JdbcDataSource h2DataSource(String name) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
    dataSource.setUser("sa");
    return dataSource;
  }
}
