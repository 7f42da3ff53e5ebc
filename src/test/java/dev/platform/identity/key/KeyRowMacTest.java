package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Write access to the database alone makes no key trusted: a row written or changed without the
 * key-encryption key is refused, its kid never listed, looked up or signed with.
 */
class KeyRowMacTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final MutableClock clock = new MutableClock(START);
  private final Settings settings = TestNodes.settings();
  private final String database = TestNodes.newDatabase();
  private Node node;
  private String current;
  private SigningKey next;
  private LogCapture log;

  /** One key signing, its successor published and signing in a day. */
  @BeforeEach
  void startNode() {
    node = TestNodes.node(database, settings, clock);
    node.rotation().rotateIfDue();
    current = node.ring().current().kid();
    next = node.rotation().rotate();
    log = LogCapture.of(SigningKeys.class.getName());
  }

  @AfterEach
  void stopNode() {
    log.close();
    node.close();
  }

  @Test
  void whenAListedKeysPublicKeyIsSwappedThenItIsRefusedAndNamedOnce() throws Exception {
    assertTrue(isServed(next.kid()));

    sql(
        "update signing_key set public_key = ? where kid = ?",
        base64(LegacyKeyRows.foreignPublicKey()),
        next.kid());
    node.ring().refresh();
    node.ring().refresh();

    assertFalse(isServed(next.kid()));
    assertTrue(isServed(current));
    clock.set(next.activeFrom());
    assertEquals(current, node.ring().current().kid(), "the refused key never signs");
    assertEquals(1, log.messages().size(), log.messages().toString());
    assertTrue(log.messages().get(0).contains(next.kid()), log.messages().get(0));
  }

  @Test
  void whenARowIsInsertedWithAnotherRowsKeyMaterialAndMacThenItIsRefused() throws Exception {
    sql(
        "insert into signing_key (kid, public_key, private_key, private_key_nonce, published_at,"
            + " active_from, created_at, row_mac) select 'forged', ?, private_key,"
            + " private_key_nonce, published_at, ?, created_at, row_mac from signing_key"
            + " where kid = ?",
        base64(LegacyKeyRows.foreignPublicKey()),
        OffsetDateTime.parse("2030-01-01T00:00:00Z"),
        next.kid());
    node.ring().refresh();

    assertFalse(isServed("forged"));
    assertEquals(2, node.keys().all().size());
  }

  @Test
  void whenAKidIsChangedThenNeitherKidIsServed() throws Exception {
    sql("update signing_key set kid = 'renamed' where kid = ?", next.kid());
    node.ring().refresh();

    assertFalse(isServed("renamed"));
    assertFalse(isServed(next.kid()));
    assertTrue(isServed(current));
  }

  @Test
  void whenAnExpiredKeysExpiryIsExtendedOrRemovedThenItStaysOutOfTheList() throws Exception {
    Instant expiry = find(current).expiresAt().orElseThrow();
    clock.set(expiry);
    node.rotation().rotateIfDue();
    assertFalse(isListed(current));
    assertTrue(isServed(current), "an operator sees the expired key");

    sql("update signing_key set expires_at = ? where kid = ?", expiry.plus(days(3650)), current);
    node.ring().refresh();
    assertFalse(isServed(current));

    sql("update signing_key set expires_at = null where kid = ?", current);
    node.ring().refresh();
    assertFalse(isServed(current));
  }

  @Test
  void whenARevokedKeyIsUnrevokedThenItStaysOutOfTheList() throws Exception {
    node.rotation().revoke(next.kid());
    assertFalse(isListed(next.kid()));

    sql("update signing_key set revoked_at = null where kid = ?", next.kid());
    node.ring().refresh();

    assertFalse(isServed(next.kid()));
    assertTrue(node.rotation().revoke(next.kid()).isEmpty(), "a refused row is not changed");
  }

  @Test
  void whenKeysAreRotatedRetiredAndRevokedThroughTheServiceThenAnotherNodeTrustsEveryRow() {
    clock.advance(Duration.ofHours(1));
    node.rotation().rotate(); // retires the pending key
    node.rotation().rotate(true);
    node.rotation().revoke(node.ring().current().kid());

    try (Node other = TestNodes.node(database, settings, clock)) {
      assertEquals(5, other.keys().all().size());
      other.ring().refresh();
      assertEquals(node.ring().current().kid(), other.ring().current().kid());
    }
    assertEquals(List.of(), log.messages());
  }

  /** Whether verifiers can have the key: in the list, by its kid, or to the admin API's check. */
  private boolean isListed(String kid) {
    return node.ring().lookup(kid).isPresent()
        || node.ring().publicKey(kid).isPresent()
        || new String(node.ring().published().body()).contains(kid);
  }

  /** Whether the key is listed or shown to an operator, expired and revoked keys included. */
  private boolean isServed(String kid) {
    return isListed(kid)
        || node.ring().statuses().stream().anyMatch(status -> status.kid().equals(kid));
  }

  private SigningKey find(String kid) {
    return KeyRotationTest.find(node.keys().all(), kid);
  }

  private void sql(String statement, Object... parameters) throws SQLException {
    try (Connection connection = node.database().dataSource().getConnection();
        PreparedStatement update = connection.prepareStatement(statement)) {
      for (int i = 0; i < parameters.length; i++) {
        Object value = parameters[i];
        update.setObject(
            i + 1, value instanceof Instant time ? time.atOffset(ZoneOffset.UTC) : value);
      }
      assertEquals(1, update.executeUpdate(), statement);
    }
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static Duration days(int days) {
    return Duration.ofDays(days);
  }
}
