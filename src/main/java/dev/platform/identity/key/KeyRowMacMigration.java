package dev.platform.identity.key;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.db.KeyedMigration;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.logging.Logger;
import javax.crypto.SecretKey;
import org.flywaydb.core.api.migration.Context;

/**
 * Flyway migration 6: computes the {@code row_mac} (added by V5) of the rows written before it,
 * which SQL cannot, since the MAC key comes from the key-encryption key in JNDI; so Flyway gets
 * this migration as an object that holds it ({@code Database.open(dataSource, migration)}). Flyway
 * runs it once per database, so rows that appear later without a MAC stay refused.
 *
 * <p>A row gets its MAC only if its private key opens under the key-encryption key for its kid and
 * is the private half of its public key: a row made or changed before the upgrade by someone
 * without the key-encryption key is left refused and named. If no row opens, the setting is wrong,
 * and the migration fails naming it (before it could vouch for anything under a wrong key).
 */
public final class KeyRowMacMigration extends KeyedMigration {
  private static final Logger LOG = Logger.getLogger(KeyRowMacMigration.class.getName());
  private static final String ROWS =
      "select kid, public_key, private_key, private_key_nonce, published_at, active_from,"
          + " expires_at, revoked_at, created_at from signing_key where row_mac is null";
  private static final String SET_MAC = "update signing_key set row_mac = ? where kid = ?";

  private final KeyEncryption encryption;
  private final KeyRowMac mac;

  public KeyRowMacMigration(SecretKey keyEncryptionKey) {
    super("6", "signing key row MACs");
    this.encryption = new KeyEncryption(keyEncryptionKey, new SecureRandom());
    this.mac = new KeyRowMac(keyEncryptionKey);
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    List<KeyRow> refused = new ArrayList<>();
    int vouched = 0;
    try (PreparedStatement query = connection.prepareStatement(ROWS);
        PreparedStatement update = connection.prepareStatement(SET_MAC);
        ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        KeyRow row = KeyRow.read(rows);
        if (isWhole(row)) {
          update.setString(1, mac.of(row));
          update.setString(2, row.kid());
          update.executeUpdate();
          vouched++;
        } else {
          refused.add(row);
        }
      }
    }
    if (vouched == 0 && !refused.isEmpty()) {
      throw new IllegalStateException(
          "java:comp/env/"
              + JndiSettings.KEY_ENCRYPTION_KEY
              + " does not decrypt any of the "
              + refused.size()
              + " stored signing keys: it is not the key-encryption key they were stored under");
    }
    for (KeyRow row : refused) {
      LOG.severe(
          "Signing key row '"
              + SigningKeys.printable(row.kid())
              + "' gets no row MAC and will never be served: its private key does not open under"
              + " the key-encryption key, or is not the private half of its public key");
    }
  }

  /** Whether the row's private key opens for its kid and belongs to its public key. */
  private boolean isWhole(KeyRow row) {
    try {
      PrivateKey opened =
          encryption.open(
              row.kid(),
              new SealedKey(
                  Base64.getDecoder().decode(row.privateKeyNonce()),
                  Base64.getDecoder().decode(row.privateKey()),
                  encryption.current().id()));
      RSAPublicKey listed =
          (RSAPublicKey)
              KeyFactory.getInstance("RSA")
                  .generatePublic(
                      new X509EncodedKeySpec(Base64.getDecoder().decode(row.publicKey())));
      return opened instanceof RSAPrivateCrtKey crt
          && crt.getModulus().equals(listed.getModulus())
          && crt.getPublicExponent().equals(listed.getPublicExponent());
    } catch (IllegalStateException | IllegalArgumentException | GeneralSecurityException e) {
      return false;
    }
  }
}
