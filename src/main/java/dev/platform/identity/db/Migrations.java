package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;

/** The schema is Flyway's alone (scripts in {@code db/migration}); EclipseLink never writes DDL. */
final class Migrations {
  private static final int READY_TIMEOUT_SECONDS = 2;
  private static final String APPLIED =
      "select count(*) from \"flyway_schema_history\" where \"version\" = ? and \"success\" = true";

  private final DataSource dataSource;
  private final MigrationVersion newest;

  private Migrations(DataSource dataSource, MigrationVersion newest) {
    this.dataSource = dataSource;
    this.newest = newest;
  }

  /** Migrates to the newest schema, remembering which that is. */
  static Migrations migrate(DataSource dataSource) {
    Flyway flyway =
        Flyway.configure(Migrations.class.getClassLoader())
            .dataSource(dataSource)
            .locations("classpath:db/migration")
            .load();
    flyway.migrate();
    return new Migrations(dataSource, flyway.info().current().getVersion());
  }

  /** Whether the database answers and has the newest migration applied. */
  boolean isCurrent() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement query = connection.prepareStatement(APPLIED)) {
      query.setQueryTimeout(READY_TIMEOUT_SECONDS);
      query.setString(1, newest.getVersion());
      try (ResultSet result = query.executeQuery()) {
        return result.next() && result.getInt(1) == 1;
      }
    } catch (SQLException e) {
      return false;
    }
  }
}
