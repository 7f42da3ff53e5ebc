package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes.Node;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 19 §2: rows sealed under a previous key-encryption key are sealed anew under the current
 * one with a compare-and-set, so two nodes never overwrite each other or a revocation; a row under
 * a key a node does not hold stops it, never passed over.
 */
class KeyResealTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final AuditEvent.Source SYSTEM =
      AuditEvent.Source.system(java.time.Clock.fixed(START, java.time.ZoneOffset.UTC));

  private final MutableClock clock = new MutableClock(START);
  private final String oldKey = TestNodes.randomKey();
  private final String newKey = TestNodes.randomKey();
  private final Settings old = settings(oldKey, null);
  private final Settings both = settings(oldKey, newKey);
  private final Settings rotated = settings(newKey, oldKey);
  private final String database = TestNodes.newDatabase();
  private final DataSource dataSource = TestDatabases.h2DataSource(database);

  static Settings settings(String current, String previous) {
    return previous == null
        ? TestNodes.settings(Map.of(JndiSettings.KEY_ENCRYPTION_KEY, current))
        : TestNodes.settings(
            Map.of(
                JndiSettings.KEY_ENCRYPTION_KEY,
                current,
                JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS,
                previous));
  }

  @Test
  void whenTwoNodesResealTheSameRowThenOneWritesItAndTheOtherChangesNothing() {
    try (Node first = TestNodes.node(database, old, clock)) {
      first.rotation().rotateIfDue();
    }
    try (Node a = TestNodes.node(database, rotated, clock);
        Node b = TestNodes.node(database, rotated, clock)) {
      a.ring().refresh();
      b.ring().refresh();
      SigningKey readByA = a.ring().rows().get(0);
      SigningKey readByB = b.ring().rows().get(0);

      assertTrue(
          a.keys().reseal(readByA, SYSTEM.event("key.reencrypt", readByA.kid(), null, Map.of())));
      assertFalse(
          b.keys().reseal(readByB, SYSTEM.event("key.reencrypt", readByB.kid(), null, Map.of())),
          "B's compare-and-set finds A's row");

      b.ring().refresh();
      assertEquals(0, b.ring().sealedUnderPreviousKeys());
      assertEquals(
          KeyEncryptionKey.idOf(rotated.secrets().keyEncryptionKey()),
          b.keys().all().get(0).kekId());
      assertEquals(readByA.kid(), b.ring().current().kid(), "the private key opens under B's key");
    }
  }

  @Test
  void whenARevocationCommitsAfterTheReadThenTheResealChangesNothingAndTheRevocationStays() {
    String kid;
    try (Node first = TestNodes.node(database, both, clock)) {
      first.rotation().rotateIfDue();
      kid = first.ring().current().kid();
    }
    try (Node resealer = TestNodes.node(database, rotated, clock);
        Node operator = TestNodes.node(database, both, clock)) {
      resealer.ring().refresh();
      SigningKey stale = resealer.ring().rows().get(0);
      operator.ring().refresh();
      clock.advance(java.time.Duration.ofMinutes(1));
      operator.rotation().revoke(kid);

      assertFalse(
          resealer
              .keys()
              .reseal(stale, SYSTEM.event("key.reencrypt", stale.kid(), null, Map.of())));
      assertTrue(revokedAt(resealer, kid).isPresent(), "the revocation is not overwritten");

      resealer.rotation().rotateIfDue(); // the next refresh reseals the row as it is now
      assertTrue(revokedAt(resealer, kid).isPresent());
      assertEquals(0, resealer.ring().sealedUnderPreviousKeys());
      assertTrue(revokedAt(operator, kid).isPresent(), "the row is trusted on both nodes");
    }
  }

  @Test
  void whenANodeRevokesAfterAResealThenItsMacIsUnderTheRowsNewKey() {
    String kid;
    try (Node first = TestNodes.node(database, both, clock)) {
      first.rotation().rotateIfDue();
      kid = first.ring().current().kid();
    }
    try (Node resealer = TestNodes.node(database, rotated, clock);
        Node operator = TestNodes.node(database, both, clock)) {
      operator.ring().refresh(); // read before the reseal: the revocation reads the row again
      resealer.rotation().rotateIfDue();
      clock.advance(java.time.Duration.ofMinutes(1));

      operator.rotation().revoke(kid);

      assertTrue(revokedAt(resealer, kid).isPresent(), "still trusted after the revocation");
      assertTrue(revokedAt(operator, kid).isPresent());
    }
  }

  @Test
  void whenARowNamesAKeyEncryptionKeyTheNodeDoesNotHoldThenStartFailsNamingItsIdAndTheKid() {
    String kid;
    try (Node first = TestNodes.node(database, rotated, clock)) {
      first.rotation().rotateIfDue();
      kid = first.ring().current().kid();
    }
    String newId = KeyEncryptionKey.idOf(rotated.secrets().keyEncryptionKey());

    try (Node behind = TestNodes.node(database, old, clock)) {
      IllegalStateException failure =
          assertThrows(IllegalStateException.class, () -> behind.rotation().start());

      assertTrue(
          failure.getMessage().contains("key-encryption key " + newId), failure.getMessage());
      assertTrue(failure.getMessage().contains(kid), failure.getMessage());
      assertTrue(
          failure.getMessage().contains("java:comp/env/identity/previousKeyEncryptionKeys"),
          failure.getMessage());
      assertEquals(1, rowCount(), "nothing was created in its place");
    }
  }

  @Test
  void whenRowsMoveToAKeyARunningNodeDoesNotHoldThenItsRefreshFailsAndItKeepsItsLastRing() {
    try (Node behind = TestNodes.node(database, old, clock)) {
      behind.rotation().rotateIfDue();
      String kid = behind.ring().current().kid();
      try (Node ahead = TestNodes.node(database, rotated, clock)) {
        ahead.rotation().rotateIfDue();
      }

      IllegalStateException failure =
          assertThrows(IllegalStateException.class, () -> behind.rotation().rotateIfDue());

      assertTrue(failure.getMessage().contains(kid), failure.getMessage());
      assertEquals(kid, behind.ring().current().kid(), "it signs with the key it had");
      assertEquals(1, rowCount(), "and it created no key of its own");
    }
  }

  @Test
  void whenARowHasNoKeyEncryptionKeyIdThenItIsRefusedAndNamed() throws SQLException {
    String refused;
    try (Node first = TestNodes.node(database, old, clock)) {
      first.rotation().rotateIfDue();
      clock.advance(java.time.Duration.ofMinutes(1));
      refused = first.rotation().rotate(true).kid();
    }
    try (Connection connection = dataSource.getConnection();
        PreparedStatement clear =
            connection.prepareStatement("update signing_key set kek_id = null where kid = ?")) {
      clear.setString(1, refused);
      clear.executeUpdate();
    }

    try (LogCapture log = LogCapture.of(SigningKeys.class.getName());
        Node node = TestNodes.node(database, old, clock)) {
      node.rotation().rotateIfDue();

      assertFalse(node.ring().current().kid().equals(refused));
      assertTrue(node.ring().lookup(refused).isEmpty());
      assertEquals(1, node.ring().sealedUnderPreviousKeys(), "it counts until it is deleted");
      assertTrue(log.messages().stream().anyMatch(line -> line.contains(refused)));
    }
  }

  private static java.util.Optional<Instant> revokedAt(Node node, String kid) {
    return node.keys().all().stream()
        .filter(key -> key.kid().equals(kid))
        .findFirst()
        .orElseThrow()
        .revokedAt();
  }

  private int rowCount() {
    try (Connection connection = dataSource.getConnection();
        var rows = connection.createStatement().executeQuery("select count(*) from signing_key")) {
      rows.next();
      return rows.getInt(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
