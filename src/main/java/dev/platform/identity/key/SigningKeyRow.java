package dev.platform.identity.key;

import java.security.PrivateKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import javax.crypto.SecretKey;

/**
 * One signing key read straight from its {@code signing_key} row by JDBC, checked and opened as the
 * key ring does (its MAC under the key-encryption key the row names, then AES-GCM with the kid as
 * associated data). For the test kit (docs/testing-with-identity.md), which holds the
 * key-encryption key of the service it started and signs refusal tokens with that service's keys;
 * the service itself never calls it.
 */
public final class SigningKeyRow {
  private static final String SELECT =
      "select kid, public_key, private_key, private_key_nonce, published_at, active_from,"
          + " expires_at, revoked_at, created_at, row_mac, kek_id, private_key_home"
          + " from signing_key where kid = ?";

  private SigningKeyRow() {}

  /**
   * The private key of {@code kid}, sealed in the database of {@code database} under {@code
   * keyEncryptionKey}.
   *
   * @throws IllegalStateException when there is no such row, its private key is not in the
   *     database, it was sealed under another key-encryption key, or its MAC does not hold
   */
  public static PrivateKey open(Connection database, SecretKey keyEncryptionKey, String kid)
      throws SQLException {
    try (PreparedStatement select = database.prepareStatement(SELECT)) {
      select.setString(1, kid);
      try (ResultSet rows = select.executeQuery()) {
        if (!rows.next()) {
          throw new IllegalStateException("no signing key " + SigningKeys.printable(kid));
        }
        return open(rows, new KeyEncryption(keyEncryptionKey, null));
      }
    }
  }

  private static PrivateKey open(ResultSet rows, KeyEncryption encryption) throws SQLException {
    String kid = rows.getString("kid");
    if (PrivateKeyHome.of(rows.getString("private_key_home")) != PrivateKeyHome.DATABASE) {
      throw new IllegalStateException("signing key " + kid + " is not in the database");
    }
    KeyEncryptionKey key = encryption.named(rows.getString("kek_id"), kid);
    if (!key.mac().verifies(KeyRow.read(rows), rows.getString("row_mac"))) {
      throw new IllegalStateException("the row of signing key " + kid + " fails its MAC");
    }
    return encryption.open(
        kid,
        new SealedKey(
            Base64.getDecoder().decode(rows.getString("private_key_nonce")),
            Base64.getDecoder().decode(rows.getString("private_key")),
            key.id()));
  }
}
