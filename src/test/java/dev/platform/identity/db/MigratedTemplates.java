package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Migrating H2 from nothing costs each test its 19 migrations; instead the schema is migrated once
 * per JVM and per set of Java migrations, kept as H2's SCRIPT, and replayed into each new database.
 * The Java migrations change nothing in empty tables but their history row, so one template serves
 * every key they are built with.
 */
final class MigratedTemplates {
  private static final String TABLES =
      "select count(*) from information_schema.tables where table_schema = 'PUBLIC'";

  private static final Map<Set<String>, List<String>> SCRIPTS = new ConcurrentHashMap<>();

  private MigratedTemplates() {}

  /**
   * Fills {@code target} with the migrated schema and its rows when it is an empty in-memory H2
   * database; anything else (PostgreSQL, a database a test has begun) is left to the migrations.
   */
  static void copyInto(DataSource target, JavaMigration... javaMigrations) {
    try (Connection connection = target.getConnection();
        Statement statement = connection.createStatement()) {
      if (!isEmptyH2(connection, statement)) {
        return;
      }
      for (String sql : script(javaMigrations)) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the migrated template cannot be copied", e);
    }
  }

  private static boolean isEmptyH2(Connection connection, Statement statement) throws SQLException {
    if (!connection.getMetaData().getURL().startsWith("jdbc:h2:mem:")) {
      return false;
    }
    try (ResultSet tables = statement.executeQuery(TABLES)) {
      return tables.next() && tables.getInt(1) == 0;
    }
  }

  private static List<String> script(JavaMigration... javaMigrations) {
    Set<String> versions =
        Arrays.stream(javaMigrations)
            .map(migration -> migration.getVersion().getVersion())
            .collect(Collectors.toSet());
    return SCRIPTS.computeIfAbsent(versions, key -> migrateTemplate(javaMigrations));
  }

  private static List<String> migrateTemplate(JavaMigration... javaMigrations) {
    DataSource template = TestDatabases.h2DataSource("template-" + UUID.randomUUID());
    Migrations.migrate(template, Vendor.H2, javaMigrations);
    List<String> script = new ArrayList<>();
    try (Connection connection = template.getConnection();
        Statement statement = connection.createStatement()) {
      try (ResultSet lines = statement.executeQuery("SCRIPT NOPASSWORDS NOSETTINGS")) {
        while (lines.next()) {
          String sql = lines.getString(1);
          // The user exists in every database already; comments are row counts.
          if (!sql.startsWith("CREATE USER") && !sql.startsWith("--")) {
            script.add(sql);
          }
        }
      }
      statement.execute("SHUTDOWN");
    } catch (SQLException e) {
      throw new IllegalStateException("the migrated template cannot be scripted", e);
    }
    return List.copyOf(script);
  }
}
