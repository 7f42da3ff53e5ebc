package dev.platform.identity.account;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.db.KeyedMigration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Logger;
import org.flywaydb.core.api.migration.Context;

/**
 * Flyway migration 13: names the pepper of the digests written before V12 added the column (issue
 * 19 §3), which SQL cannot, since the peppers come from JNDI. They were all made under the pepper
 * the check row of V8 was made under; with no check row yet, under the current pepper. A check row
 * under none of the configured peppers means a wrong setting, and the migration fails naming it (as
 * {@link PepperCheck} does) rather than label every digest with the wrong pepper.
 */
public final class SecretPepperIdMigration extends KeyedMigration {
  private static final Logger LOG = Logger.getLogger(SecretPepperIdMigration.class.getName());
  private static final String CHECK = "select check_value from secret_pepper_check where id = 1";
  private static final String CURRENT =
      "update service_account set secret_pepper_id = ? where secret_pepper_id is null";
  private static final String PREVIOUS =
      "update service_account set previous_secret_pepper_id = ?"
          + " where previous_secret_digest is not null and previous_secret_pepper_id is null";

  private final SecretDigest digest;

  /** With the peppers of the settings: {@code identity/secretPepper} and the previous ones. */
  public SecretPepperIdMigration(SecretDigest digest) {
    super("13", "secret pepper ids");
    this.digest = digest;
  }

  @Override
  public void migrate(Context context) throws SQLException {
    Connection connection = context.getConnection();
    String pepperId = checkValue(connection).map(this::pepperOf).orElse(digest.currentPepperId());
    int rows = update(connection, CURRENT, pepperId) + update(connection, PREVIOUS, pepperId);
    if (rows > 0) {
      LOG.info("Named pepper " + pepperId + " as the pepper of the client secrets stored before");
    }
  }

  private String pepperOf(String checkValue) {
    return digest
        .pepperOf(PepperCheck.LABEL, checkValue)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "java:comp/env/"
                        + JndiSettings.SECRET_PEPPER
                        + " (or the file that "
                        + JndiSettings.SECRET_PEPPER_FILE
                        + " names) is not the pepper this database's client secrets were digested"
                        + " under, nor is any of "
                        + JndiSettings.PREVIOUS_SECRET_PEPPERS
                        + ": the check value in table secret_pepper_check matches none"));
  }

  private static Optional<String> checkValue(Connection connection) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(CHECK);
        ResultSet row = query.executeQuery()) {
      return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
    }
  }

  private static int update(Connection connection, String sql, String pepperId)
      throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(sql)) {
      update.setString(1, pepperId);
      return update.executeUpdate();
    }
  }
}
