package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.db.Vendor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/** Issue 19 §3, migration 13: the rows written before the pepper ids get the right one. */
class SecretPepperIdMigrationTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  final DataSource dataSource = TestDatabases.h2DataSource("v9-" + UUID.randomUUID());
  final UUID plain = UUID.randomUUID();
  final UUID inOverlap = UUID.randomUUID();

  /** A database as the version before issue 19 §3 left it: two accounts, one in an overlap. */
  void legacy(String checkValue) throws SQLException {
    Flyway.configure()
        .dataSource(dataSource)
        .locations(Vendor.H2.migrationLocations())
        .target("9")
        .load()
        .migrate();
    try (Connection connection = dataSource.getConnection()) {
      insert(connection, plain, null);
      insert(connection, inOverlap, "previous-digest");
      if (checkValue != null) {
        try (PreparedStatement check =
            connection.prepareStatement(
                "insert into secret_pepper_check (id, check_value) values (1, ?)")) {
          check.setString(1, checkValue);
          check.executeUpdate();
        }
      }
    }
  }

  static void insert(Connection connection, UUID id, String previous) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "insert into service_account (client_id, name, organization_id, accessible_orgs,"
                + " scopes, service_name, status, secret_digest, created_at, updated_at,"
                + " secret_created_at, previous_secret_digest, previous_secret_expires_at)"
                + " values (?, 'legacy', 'org-a', 'org-a', 'catalog:products.view', 'catalog',"
                + " 'ACTIVE', 'legacy-digest', ?, ?, ?, ?, ?)")) {
      OffsetDateTime now = OffsetDateTime.ofInstant(NOW, ZoneOffset.UTC);
      insert.setString(1, id.toString());
      insert.setObject(2, now);
      insert.setObject(3, now);
      insert.setObject(4, now);
      insert.setString(5, previous);
      insert.setObject(6, previous == null ? null : now.plusDays(1));
      insert.executeUpdate();
    }
  }

  List<String> ids(UUID id) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement query =
            connection.prepareStatement(
                "select secret_pepper_id, previous_secret_pepper_id from service_account"
                    + " where client_id = ?")) {
      query.setString(1, id.toString());
      try (ResultSet row = query.executeQuery()) {
        row.next();
        return java.util.Arrays.asList(row.getString(1), row.getString(2));
      }
    }
  }

  @Test
  void whenTheCheckRowIsUnderAPreviousPepperThenTheRowsNameThatPepper() throws SQLException {
    SecretDigest old = SecretDigestTest.digest(1);
    legacy(old.of(PepperCheck.LABEL).value());
    SecretDigest rotated =
        new SecretDigest(SecretDigestTest.pepper(2), List.of(SecretDigestTest.pepper(1)));

    try (Database database = Database.open(dataSource, new SecretPepperIdMigration(rotated))) {
      assertEquals(java.util.Arrays.asList(old.currentPepperId(), null), ids(plain));
      assertEquals(List.of(old.currentPepperId(), old.currentPepperId()), ids(inOverlap));
    }
  }

  @Test
  void whenThereIsNoCheckRowThenTheRowsNameTheCurrentPepper() throws SQLException {
    legacy(null);
    SecretDigest current = SecretDigestTest.digest(4);

    try (Database database = Database.open(dataSource, new SecretPepperIdMigration(current))) {
      assertEquals(current.currentPepperId(), ids(plain).get(0));
      assertNull(ids(plain).get(1));
      assertEquals(List.of(current.currentPepperId(), current.currentPepperId()), ids(inOverlap));
    }
  }

  @Test
  void whenTheCheckRowIsUnderNoConfiguredPepperThenTheMigrationFailsNamingTheSetting()
      throws SQLException {
    legacy(SecretDigestTest.digest(7).of(PepperCheck.LABEL).value());
    SecretDigest other = SecretDigestTest.digest(8);

    RuntimeException e =
        assertThrows(
            RuntimeException.class,
            () -> Database.open(dataSource, new SecretPepperIdMigration(other)));

    String message = messages(e);
    assertTrue(message.contains("java:comp/env/identity/secretPepper"), message);
    assertTrue(message.contains("identity/previousSecretPeppers"), message);
    assertNull(ids(plain).get(0), "nothing of the failed migration remains");

    // Once the setting is right, the next start runs it again.
    try (Database database =
        Database.open(dataSource, new SecretPepperIdMigration(SecretDigestTest.digest(7)))) {
      assertEquals(SecretDigestTest.digest(7).currentPepperId(), ids(plain).get(0));
    }
  }

  @Test
  void whenARowLacksItsPepperIdAfterTheMigrationsThenTheSchemaRefusesIt() throws SQLException {
    try (Database database =
        Database.open(dataSource, new SecretPepperIdMigration(SecretDigestTest.digest(1)))) {
      legacyShapedInsertIsRefused();
    }
  }

  void legacyShapedInsertIsRefused() throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      assertThrows(SQLException.class, () -> insert(connection, UUID.randomUUID(), null));
    }
  }

  static String messages(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t.getMessage()).append('\n');
    }
    return text.toString();
  }
}
