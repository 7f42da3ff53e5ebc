package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Flyway's locations for the database behind a DataSource, for tests that migrate part way. */
public final class MigrationLocations {
  private MigrationLocations() {}

  /** The service's own locations for that database ({@link Vendor#migrationLocations()}). */
  public static String[] of(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return Vendor.of(connection).migrationLocations();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
