package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes.Node;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Rows written before the row MAC: migration 6 vouches for the whole ones, and only for those. */
class KeyRowMacMigrationTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final String SETTING = "java:comp/env/identity/keyEncryptionKey";

  private final MutableClock clock = new MutableClock(START);
  private final Settings settings = TestNodes.settings();
  private final DataSource dataSource = TestDatabases.h2DataSource(TestNodes.newDatabase());

  @Test
  void whenRowsPredateTheMacThenTheMigrationVouchesForThemAndTheyAreServedAsBefore()
      throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, settings);
    Instant retiring = START.minus(Duration.ofDays(40));
    Instant signing = START.minus(Duration.ofDays(10));
    String old = legacy.insert(retiring, START.plus(Duration.ofHours(1)));
    String now = legacy.insert(signing, null);

    try (Node node = TestNodes.node(dataSource, settings, clock)) {
      assertFalse(node.rotation().rotateIfDue(), "no new key: the old rows are trusted");

      assertEquals(now, node.ring().current().kid());
      assertTrue(node.ring().lookup(old).isPresent());
      assertEquals(Set.of(old, now), kidsWithMac());
    }
  }

  @Test
  void whenALegacyRowsPublicKeyIsNotItsPrivateKeysThenTheMigrationLeavesItRefused()
      throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, settings);
    String whole = legacy.insert(START.minus(Duration.ofDays(10)), null);
    String swapped = legacy.insertWithForeignPublicKey(START.minus(Duration.ofDays(1)));

    try (LogCapture log = LogCapture.of(KeyRowMacMigration.class.getName());
        Node node = TestNodes.node(dataSource, settings, clock)) {
      node.rotation().rotateIfDue();

      assertEquals(Set.of(whole), kidsWithMac());
      assertEquals(whole, node.ring().current().kid(), "the newer, swapped key never signs");
      assertTrue(node.ring().lookup(swapped).isEmpty());
      assertEquals(1, log.messages().size());
      assertTrue(log.messages().get(0).contains(swapped), log.messages().get(0));
    }
  }

  @Test
  void whenTheKeyEncryptionKeyIsWrongThenTheMigrationFailsNamingItAndSucceedsWithTheRightOne()
      throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, settings);
    String kid = legacy.insert(START.minus(Duration.ofDays(10)), null);
    Settings wrong =
        TestNodes.settings(Map.of(JndiSettings.KEY_ENCRYPTION_KEY, TestNodes.randomKey()));

    RuntimeException failure =
        assertThrows(
            RuntimeException.class,
            () ->
                Database.open(
                    dataSource, new KeyRowMacMigration(wrong.secrets().keyEncryptionKey())));

    assertTrue(messages(failure).contains(SETTING + " does not decrypt"), messages(failure));
    assertEquals(Set.of(), kidsWithMac());
    try (Node node = TestNodes.node(dataSource, settings, clock)) {
      node.rotation().rotateIfDue();
      assertEquals(kid, node.ring().current().kid());
    }
  }

  /** The kids of the rows that have a row MAC. */
  private Set<String> kidsWithMac() throws SQLException {
    Set<String> kids = new TreeSet<>();
    try (Connection connection = dataSource.getConnection();
        ResultSet rows =
            connection
                .createStatement()
                .executeQuery("select kid from signing_key where row_mac is not null")) {
      while (rows.next()) {
        kids.add(rows.getString(1));
      }
    }
    return kids;
  }

  private static String messages(Throwable failure) {
    List<String> messages = new ArrayList<>();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      messages.add(String.valueOf(cause.getMessage()));
    }
    return String.join(" / ", messages);
  }
}
