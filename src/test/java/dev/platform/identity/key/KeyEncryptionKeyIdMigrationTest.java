package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes.Node;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Rows written before the key-encryption key id: migration 11 finds the key whose MAC vouches for
 * each, current or previous, so they keep working with no manual step.
 */
class KeyEncryptionKeyIdMigrationTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final String SETTING = "java:comp/env/identity/keyEncryptionKey";

  private final MutableClock clock = new MutableClock(START);
  private final String oldKey = TestNodes.randomKey();
  private final Settings old = KeyResealTest.settings(oldKey, null);
  private final DataSource dataSource = TestDatabases.h2DataSource(TestNodes.newDatabase());

  @Test
  void whenRowsPredateTheIdThenTheMigrationFillsItFromTheirMacAndTheyAreServedAsBefore()
      throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, old);
    String retiring = legacy.insert(START.minus(Duration.ofDays(40)), START.plusSeconds(3600));
    String signing = legacy.insert(START.minus(Duration.ofDays(10)), null);
    legacy.migrateToVersion9();

    try (Node node = TestNodes.node(dataSource, old, clock)) {
      String id = KeyEncryptionKey.idOf(old.secrets().keyEncryptionKey());
      assertEquals(Map.of(retiring, id, signing, id), kekIds());

      node.rotation().rotateIfDue();
      assertEquals(signing, node.ring().current().kid());
      assertTrue(node.ring().lookup(retiring).isPresent());
      assertEquals(0, node.ring().sealedUnderPreviousKeys());
    }
  }

  @Test
  void whenTheUpgradeComesWithANewKeyThenTheRowsGetThePreviousKeysIdAndAreResealed()
      throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, old);
    String signing = legacy.insert(START.minus(Duration.ofDays(10)), null);
    legacy.migrateToVersion9();
    Settings rotated = KeyResealTest.settings(TestNodes.randomKey(), oldKey);

    try (Node node = TestNodes.node(dataSource, rotated, clock)) {
      assertEquals(
          Map.of(signing, KeyEncryptionKey.idOf(old.secrets().keyEncryptionKey())), kekIds());

      node.rotation().rotateIfDue();
      assertEquals(signing, node.ring().current().kid());
      assertEquals(
          Map.of(signing, KeyEncryptionKey.idOf(rotated.secrets().keyEncryptionKey())), kekIds());
      assertEquals(0, node.ring().sealedUnderPreviousKeys());
    }
  }

  @Test
  void whenNoConfiguredKeyVouchesForAnyRowThenTheMigrationFailsNamingTheSetting() throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, old);
    String kid = legacy.insert(START.minus(Duration.ofDays(10)), null);
    legacy.migrateToVersion9();
    Settings wrong = KeyResealTest.settings(TestNodes.randomKey(), TestNodes.randomKey());

    RuntimeException failure =
        assertThrows(RuntimeException.class, () -> TestNodes.open(dataSource, wrong));

    assertTrue(messages(failure).contains(SETTING), messages(failure));
    assertTrue(messages(failure).contains("does not vouch for any"), messages(failure));
    assertEquals(Map.of(kid, "null"), kekIds());
    try (Node node = TestNodes.node(dataSource, old, clock)) {
      node.rotation().rotateIfDue();
      assertEquals(kid, node.ring().current().kid());
    }
  }

  @Test
  void whenOneRowsMacWasChangedThenOnlyItKeepsNoIdAndIsNamed() throws Exception {
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource, old);
    String whole = legacy.insert(START.minus(Duration.ofDays(10)), null);
    String changed = legacy.insert(START.minus(Duration.ofDays(1)), null);
    legacy.migrateToVersion9();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement update =
            connection.prepareStatement(
                "update signing_key set expires_at = active_from where kid = ?")) {
      update.setString(1, changed);
      update.executeUpdate();
    }

    try (LogCapture log = LogCapture.of(KeyEncryptionKeyIdMigration.class.getName());
        Node node = TestNodes.node(dataSource, old, clock)) {
      assertEquals(
          Map.of(whole, KeyEncryptionKey.idOf(old.secrets().keyEncryptionKey()), changed, "null"),
          kekIds());
      assertEquals(1, log.messages().size());
      assertTrue(log.messages().get(0).contains(changed), log.messages().get(0));

      node.rotation().rotateIfDue();
      assertEquals(whole, node.ring().current().kid());
    }
  }

  private Map<String, String> kekIds() throws SQLException {
    Map<String, String> ids = new TreeMap<>();
    try (Connection connection = dataSource.getConnection();
        ResultSet rows =
            connection.createStatement().executeQuery("select kid, kek_id from signing_key")) {
      while (rows.next()) {
        ids.put(rows.getString(1), String.valueOf(rows.getString(2)));
      }
    }
    return ids;
  }

  private static String messages(Throwable failure) {
    List<String> messages = new ArrayList<>();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      messages.add(String.valueOf(cause.getMessage()));
    }
    return String.join(" / ", messages);
  }
}
