package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.db.Vendor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

class PepperCheckTest {
  static SecretDigest digest(int fill) {
    byte[] pepper = new byte[32];
    Arrays.fill(pepper, (byte) fill);
    return new SecretDigest(new SecretKeySpec(pepper, "HmacSHA256"));
  }

  @Test
  void whenTheSamePepperStartsAgainThenItPasses() throws SQLException {
    try (Database database = TestDatabases.h2()) {
      new PepperCheck(database.dataSource()).verify(digest(1));
      new PepperCheck(database.dataSource()).verify(digest(1));

      assertEquals(1, rows(database.dataSource()));
    }
  }

  @Test
  void whenAnotherPepperStartsThenRefusedNamingTheSetting() {
    try (Database database = TestDatabases.h2()) {
      new PepperCheck(database.dataSource()).verify(digest(1));

      InvalidSettingException e =
          assertThrows(
              InvalidSettingException.class,
              () -> new PepperCheck(database.dataSource()).verify(digest(2)));

      assertTrue(
          e.getMessage()
              .startsWith(
                  "java:comp/env/identity/secretPepper (or the file that identity/secretPepperFile names) is not the pepper"),
          e.getMessage());
      assertTrue(e.getMessage().contains("identity/secretPepperFile"), e.getMessage());
    }
  }

  @Test
  void whenADatabaseOfAnEarlierVersionIsUpgradedThenItsFirstStartStoresTheCheck()
      throws SQLException {
    DataSource dataSource = TestDatabases.h2DataSource("upgrade-" + UUID.randomUUID());
    Flyway.configure()
        .dataSource(dataSource)
        .locations(Vendor.H2.migrationLocations())
        .target("7")
        .load()
        .migrate();

    try (Database database = Database.open(dataSource)) {
      assertEquals(0, rows(dataSource), "V8 adds the table, empty");
      new PepperCheck(dataSource).verify(digest(1));
      assertEquals(1, rows(dataSource));

      assertThrows(
          InvalidSettingException.class, () -> new PepperCheck(dataSource).verify(digest(3)));
    }
  }

  @Test
  void whenTheCheckValueIsStoredThenItIsNotThePepper() throws SQLException {
    try (Database database = TestDatabases.h2()) {
      new PepperCheck(database.dataSource()).verify(digest(65));

      assertFalse(text(database.dataSource()).contains("AAAA"));
      assertEquals(digest(65).of(PepperCheck.LABEL).value(), text(database.dataSource()));
    }
  }

  static int rows(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("select count(*) from secret_pepper_check")) {
      count.next();
      return count.getInt(1);
    }
  }

  static String text(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("select check_value from secret_pepper_check")) {
      row.next();
      return row.getString(1);
    }
  }

  @Test
  void whenThePepperWasRotatedThenTheCheckUnderThePreviousPepperPassesAndIsRewritten()
      throws SQLException {
    try (Database database = TestDatabases.h2();
        LogCapture log = LogCapture.of(PepperCheck.class.getName())) {
      new PepperCheck(database.dataSource()).verify(digest(1));
      SecretDigest rotated =
          new SecretDigest(SecretDigestTest.pepper(2), List.of(SecretDigestTest.pepper(1)));

      new PepperCheck(database.dataSource()).verify(rotated);

      assertEquals(digest(2).of(PepperCheck.LABEL).value(), text(database.dataSource()));
      assertTrue(
          log.messages().stream()
              .anyMatch(line -> line.contains("previous pepper " + digest(1).currentPepperId())),
          log.messages().toString());
      // Phase 3 of the rotation: a node with the new pepper alone starts.
      new PepperCheck(database.dataSource()).verify(digest(2));
      // And the old pepper alone no longer does.
      InvalidSettingException e =
          assertThrows(
              InvalidSettingException.class,
              () -> new PepperCheck(database.dataSource()).verify(digest(1)));
      assertTrue(e.getMessage().contains("identity/previousSecretPeppers"), e.getMessage());
    }
  }

  @Test
  void whenTheNewPepperIsOnlyAPreviousOneThenTheCheckStaysUnderTheCurrentPepper()
      throws SQLException {
    try (Database database = TestDatabases.h2()) {
      new PepperCheck(database.dataSource()).verify(digest(1));
      // Phase 1 of the rotation: the new pepper is known, not yet current.
      SecretDigest phaseOne =
          new SecretDigest(SecretDigestTest.pepper(1), List.of(SecretDigestTest.pepper(2)));

      new PepperCheck(database.dataSource()).verify(phaseOne);

      assertEquals(digest(1).of(PepperCheck.LABEL).value(), text(database.dataSource()));
    }
  }
}
