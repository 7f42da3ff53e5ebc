package dev.platform.identity.key;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.db.KeyedMigration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import javax.crypto.SecretKey;
import org.flywaydb.core.api.migration.Context;

/**
 * Flyway migration 11: fills the {@code kek_id} (added by V10) of the rows written before it, so
 * that they keep working with no manual step. A row's key-encryption key is the configured one,
 * current or previous, whose derived MAC key verifies the row's {@code row_mac}: no decryption is
 * needed, and a row no configured key vouches for stays null, which is refused (it was refused
 * before, for its MAC). If rows with a MAC exist and none verifies under any configured key, the
 * settings are wrong, and the migration fails naming them, as migration 6 does.
 */
public final class KeyEncryptionKeyIdMigration extends KeyedMigration {
  private static final Logger LOG = Logger.getLogger(KeyEncryptionKeyIdMigration.class.getName());
  private static final String ROWS =
      "select kid, public_key, private_key, private_key_nonce, published_at, active_from,"
          + " expires_at, revoked_at, created_at, row_mac from signing_key where kek_id is null";
  private static final String SET_ID = "update signing_key set kek_id = ? where kid = ?";

  private final List<KeyEncryptionKey> keys = new ArrayList<>();

  /** With the current key-encryption key and the previous ones, as the settings hold them. */
  public KeyEncryptionKeyIdMigration(SecretKey current, List<SecretKey> previous) {
    super("11", "signing key key-encryption key ids");
    keys.add(KeyEncryptionKey.of(current));
    previous.forEach(key -> keys.add(KeyEncryptionKey.of(key)));
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    List<String> unvouched = new ArrayList<>();
    int withMac = 0;
    int vouched = 0;
    try (PreparedStatement query = connection.prepareStatement(ROWS);
        PreparedStatement update = connection.prepareStatement(SET_ID);
        ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        KeyRow row = KeyRow.read(rows);
        String mac = rows.getString("row_mac");
        withMac += mac == null ? 0 : 1;
        Optional<KeyEncryptionKey> sealer = sealer(row, mac);
        if (sealer.isPresent()) {
          update.setString(1, sealer.get().id());
          update.setString(2, row.kid());
          update.executeUpdate();
          vouched++;
        } else {
          unvouched.add(row.kid());
        }
      }
    }
    if (vouched == 0 && withMac > 0) {
      throw new IllegalStateException(
          "java:comp/env/"
              + JndiSettings.KEY_ENCRYPTION_KEY
              + " (nor any of java:comp/env/"
              + JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS
              + ") does not vouch for any of the "
              + withMac
              + " stored signing keys: it is not the key-encryption key they were stored under");
    }
    for (String kid : unvouched) {
      LOG.severe(
          "Signing key row '"
              + SigningKeys.printable(kid)
              + "' gets no kek_id and will never be served: no configured key-encryption key"
              + " vouches for its row_mac");
    }
  }

  /** The configured key whose MAC key verifies {@code mac}, the row's stored MAC. */
  private Optional<KeyEncryptionKey> sealer(KeyRow row, String mac) {
    return keys.stream().filter(key -> key.mac().verifies(row, mac)).findFirst();
  }
}
