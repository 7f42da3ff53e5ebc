package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * The schema is Flyway's alone (scripts in {@code db/migration} and the database's own folder,
 * {@link Vendor#migrationLocations()}; Java migrations handed in); EclipseLink never writes DDL.
 */
final class Migrations {
  private static final int READY_TIMEOUT_SECONDS = 1;

  /**
   * The newest migration is applied, and the tables every token needs can be read: the empty
   * subqueries still take their tables' share lock, so a lock held on either makes readiness wait,
   * time out and say no.
   */
  private static final String APPLIED =
      "select count(*) from %s where %s = ? and %s = true"
          + " and not exists (select 1 from service_account where 1 = 0)"
          + " and not exists (select 1 from signing_key where 1 = 0)";

  /** Flyway's table and columns are lower case, quoted in the database's own way. */
  private static final String FORGET_FAILED = "delete from %s where %s = ? and %s = false";

  private final DataSource dataSource;
  private final MigrationVersion newest;
  private final String applied;

  private Migrations(DataSource dataSource, MigrationVersion newest, Vendor vendor) {
    this.dataSource = dataSource;
    this.newest = newest;
    this.applied = flywaySql(APPLIED, vendor);
  }

  /** {@code sql} with Flyway's table and its version and success columns, quoted. */
  private static String flywaySql(String sql, Vendor vendor) {
    return sql.formatted(
        vendor.quoted("flyway_schema_history"), vendor.quoted("version"), vendor.quoted("success"));
  }

  /**
   * Migrates to the newest schema, remembering which that is: the scripts, and {@code
   * javaMigrations} beside them (objects, so they can hold what a script cannot, such as a key).
   */
  static Migrations migrate(DataSource dataSource, Vendor vendor, JavaMigration... javaMigrations) {
    Flyway flyway =
        Flyway.configure(Migrations.class.getClassLoader())
            .dataSource(dataSource)
            .locations(vendor.migrationLocations())
            .javaMigrations(javaMigrations)
            .load();
    forgetFailures(flyway, dataSource, vendor, javaMigrations);
    flyway.migrate();
    return new Migrations(dataSource, flyway.info().current().getVersion(), vendor);
  }

  /**
   * A Java migration runs in one transaction, so when it fails (a wrong key-encryption key, say)
   * nothing of it remains. H2 has no transactional DDL, so Flyway records the failure there all the
   * same (so does MariaDB, whose DDL commits itself) and refuses every later start until someone
   * runs {@code flyway repair}; forgetting it lets the next start, with the setting fixed, simply
   * run the migration again.
   */
  private static void forgetFailures(
      Flyway flyway, DataSource dataSource, Vendor vendor, JavaMigration... javaMigrations) {
    Set<MigrationVersion> ours =
        Arrays.stream(javaMigrations).map(JavaMigration::getVersion).collect(Collectors.toSet());
    for (MigrationInfo failed : flyway.info().all()) {
      if (failed.getState() == MigrationState.FAILED && ours.contains(failed.getVersion())) {
        try (Connection connection = dataSource.getConnection();
            PreparedStatement delete =
                connection.prepareStatement(flywaySql(FORGET_FAILED, vendor))) {
          delete.setString(1, failed.getVersion().getVersion());
          delete.executeUpdate();
        } catch (SQLException e) {
          throw new IllegalStateException("the failed migration cannot be forgotten", e);
        }
      }
    }
  }

  /** Whether the database answers and has the newest migration applied. */
  boolean isCurrent() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement query = connection.prepareStatement(applied)) {
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
