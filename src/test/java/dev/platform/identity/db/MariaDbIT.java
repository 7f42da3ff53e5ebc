package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * What MariaDB needs that the other databases do by themselves (issue 42), on the server of {@code
 * -Pmariadb}: the schema's types chosen on purpose, every table and column enumerated, and the
 * start refused on a connection that would store times in another zone or cut values short.
 */
@EnabledIfSystemProperty(named = "identity.mariadb.url", matches = ".+")
class MariaDbIT {
  FreshMariaDb database;

  @BeforeEach
  void create() throws SQLException {
    database = FreshMariaDb.create("identity_mariadb");
  }

  @AfterEach
  void drop() throws SQLException {
    database.close();
  }

  @Test
  void whenMigratedThenEveryTableIsInnoDbInUtf8mb4AndEveryTextComparesByteForByte()
      throws SQLException {
    Database.open(database.dataSource()).close();

    List<String> notInnoDb =
        rows(
            "select table_name from information_schema.tables where table_schema = database()"
                + " and table_name <> 'flyway_schema_history'"
                + " and (engine <> 'InnoDB' or table_collation <> 'utf8mb4_nopad_bin')");
    List<String> caseInsensitive =
        rows(
            "select concat(table_name, '.', column_name, ' ', collation_name)"
                + " from information_schema.columns where table_schema = database()"
                + " and table_name <> 'flyway_schema_history' and collation_name is not null"
                + " and collation_name not in ('utf8mb4_nopad_bin', 'ascii_nopad_bin')");
    List<String> times =
        rows(
            "select concat(table_name, '.', column_name, ' ', column_type)"
                + " from information_schema.columns where table_schema = database()"
                + " and table_name <> 'flyway_schema_history'"
                + " and data_type in ('datetime', 'timestamp', 'date', 'time')"
                + " and column_type <> 'datetime(6)'");
    List<String> tables =
        rows(
            "select table_name from information_schema.tables where table_schema = database()"
                + " and table_name <> 'flyway_schema_history'");

    assertEquals(List.of(), notInnoDb);
    assertEquals(List.of(), caseInsensitive, "every identifier, digest and key compares exactly");
    assertEquals(List.of(), times, "every time has microseconds and no zone conversion");
    assertTrue(tables.size() >= 16, "the enumeration saw the tables: " + tables);
  }

  @Test
  void whenTwoKeysDifferOnlyInCaseOrATrailingSpaceThenTheyAreTwoRows() throws SQLException {
    Database.open(database.dataSource()).close();
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      for (String id : List.of("session-a", "Session-A", "session-a ")) {
        statement.executeUpdate(
            "insert into console_session_end (session_id, expires_at) values ('"
                + id
                + "', '2026-01-01 00:00:00')");
      }
    }

    assertEquals(
        List.of("1"),
        rows("select count(*) from console_session_end where session_id = 'session-a'"));
    assertEquals(List.of("3"), rows("select count(*) from console_session_end"));
  }

  @Test
  void whenTheConnectionWritesTimesInAnotherZoneThenTheStartStopsNamingTheUrlOptions()
      throws SQLException {
    MariaDbDataSource newYork =
        new MariaDbDataSource(
            database
                .url(3306)
                .replace("connectionTimeZone=UTC", "connectionTimeZone=America/New_York"));

    UnsuitableDatabaseException refused =
        assertThrows(UnsuitableDatabaseException.class, () -> Database.open(newYork));

    assertTrue(
        refused.getMessage().contains("connectionTimeZone=UTC&preserveInstants=true"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("2001-02-03 04:05:06"), refused.getMessage());
    assertEquals(List.of(), rows("show tables"), "nothing was migrated");
  }

  /**
   * Europe/London is UTC+0 on 2001-02-03, the fixed probe: only the probes of the year ahead (one
   * in summer) show that such a connection writes an hour off half the year.
   */
  @Test
  void whenTheConnectionsZoneIsUtcOnlyInWinterThenTheStartStopsAllTheSame() throws SQLException {
    MariaDbDataSource london =
        new MariaDbDataSource(
            database
                .url(3306)
                .replace("connectionTimeZone=UTC", "connectionTimeZone=Europe/London"));

    UnsuitableDatabaseException refused =
        assertThrows(UnsuitableDatabaseException.class, () -> Database.open(london));

    assertTrue(
        refused.getMessage().contains("connectionTimeZone=UTC&preserveInstants=true"),
        refused.getMessage());
    assertEquals(List.of(), rows("show tables"), "nothing was migrated");
  }

  @Test
  void whenTheSessionIsNotStrictThenTheStartStopsRatherThanCutValuesShort() throws SQLException {
    MariaDbDataSource lax =
        new MariaDbDataSource(database.url(3306) + "&sessionVariables=sql_mode=''");

    UnsuitableDatabaseException refused =
        assertThrows(UnsuitableDatabaseException.class, () -> Database.open(lax));

    assertTrue(refused.getMessage().contains("STRICT_TRANS_TABLES"), refused.getMessage());
  }

  private List<String> rows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        rows.add(result.getString(1));
      }
    }
    return rows;
  }
}
