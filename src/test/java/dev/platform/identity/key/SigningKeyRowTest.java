package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.security.interfaces.RSAPrivateCrtKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The test kit's way to a signing key (issue 43): the row's private half, opened only with the
 * key-encryption key and only while the row's MAC holds, as the key ring checks it.
 */
class SigningKeyRowTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final Settings settings = TestNodes.settings();
  private final Node node =
      TestNodes.node(TestNodes.newDatabase(), settings, new MutableClock(START));
  private SigningKey key;

  @BeforeEach
  void publishAKey() {
    key = node.rotation().rotate();
  }

  @AfterEach
  void stopNode() {
    node.close();
  }

  @Test
  void whenTheRowIsAsTheServiceWroteItThenItsPrivateKeyOpens() throws SQLException {
    try (Connection connection = node.database().dataSource().getConnection()) {
      RSAPrivateCrtKey opened =
          (RSAPrivateCrtKey)
              SigningKeyRow.open(connection, settings.secrets().keyEncryptionKey(), key.kid());

      assertEquals(key.rsaPublicKey().getModulus(), opened.getModulus());
    }
  }

  @Test
  void whenTheRowWasChangedWithoutTheKeyThenItsMacFailsAndNothingOpens() throws SQLException {
    try (Connection connection = node.database().dataSource().getConnection()) {
      try (PreparedStatement update =
          connection.prepareStatement("update signing_key set expires_at = ? where kid = ?")) {
        update.setObject(1, START.plusSeconds(86_400).atOffset(ZoneOffset.UTC));
        update.setString(2, key.kid());
        assertEquals(1, update.executeUpdate());
      }

      IllegalStateException refused =
          assertThrows(
              IllegalStateException.class,
              () ->
                  SigningKeyRow.open(connection, settings.secrets().keyEncryptionKey(), key.kid()));
      assertTrue(refused.getMessage().contains("fails its MAC"), refused.getMessage());
    }
  }

  @Test
  void whenAnotherKeyEncryptionKeyIsGivenThenNothingOpens() throws SQLException {
    try (Connection connection = node.database().dataSource().getConnection()) {
      SecretKeySpec other = new SecretKeySpec(new byte[32], "AES");

      assertThrows(
          IllegalStateException.class, () -> SigningKeyRow.open(connection, other, key.kid()));
      assertThrows(
          IllegalStateException.class,
          () -> SigningKeyRow.open(connection, settings.secrets().keyEncryptionKey(), "nope"));
    }
  }
}
