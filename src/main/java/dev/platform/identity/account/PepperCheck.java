package dev.platform.identity.account;

import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A wrong pepper is not silent: the database keeps the digest of a fixed label under the pepper it
 * was first started with (migration V8), and a start under another pepper fails naming the setting,
 * where it would otherwise refuse every client secret as wrong. A check value under one of {@code
 * identity/previousSecretPeppers} passes too, and is rewritten under the current pepper, so that
 * once the pepper is rotated a node with the new pepper alone still starts.
 */
public final class PepperCheck {
  /** What is digested: not a secret, only the same text every time. */
  static final String LABEL = "dev.platform.identity secret pepper check v1";

  private static final Logger LOG = Logger.getLogger(PepperCheck.class.getName());
  private static final String READ = "select check_value from secret_pepper_check where id = 1";
  private static final String WRITE =
      "insert into secret_pepper_check (id, check_value) values (1, ?)";
  private static final String REWRITE =
      "update secret_pepper_check set check_value = ? where id = 1 and check_value = ?";

  private final DataSource dataSource;

  public PepperCheck(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Stores the check value of {@code digest}'s current pepper the first time, and compares it every
   * later time; a check value under a previous pepper is moved to the current one.
   *
   * @throws InvalidSettingException naming {@code identity/secretPepper} when the check value is
   *     under none of {@code digest}'s peppers
   */
  public void verify(SecretDigest digest) {
    String stored = stored().orElseGet(() -> storeFirst(digest));
    String pepperId =
        digest
            .pepperOf(LABEL, stored)
            .orElseThrow(
                () ->
                    new InvalidSettingException(
                        JndiSettings.SECRET_PEPPER,
                        "(or the file that "
                            + JndiSettings.SECRET_PEPPER_FILE
                            + " names) is not the pepper this database's client secrets were"
                            + " digested under, nor is any of "
                            + JndiSettings.PREVIOUS_SECRET_PEPPERS
                            + ": the check value in table secret_pepper_check differs. Set the"
                            + " pepper the database was last started with (after a rotation, the"
                            + " old one among the previous peppers); under this one no client"
                            + " secret would match"));
    if (!pepperId.equals(digest.currentPepperId())) {
      rewrite(stored, digest.checkValue(), pepperId);
    }
  }

  /** Compare-and-set: if another node rewrote it first, its value is the same. */
  private void rewrite(String old, String value, String oldPepperId) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement update = connection.prepareStatement(REWRITE)) {
      update.setString(1, value);
      update.setString(2, old);
      if (update.executeUpdate() == 1) {
        LOG.info(
            "The secret pepper's check value was under previous pepper "
                + oldPepperId
                + "; it is now under the current pepper, which later starts must have");
      }
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /** The first node to insert wins; another that started at the same time reads its row. */
  private String storeFirst(SecretDigest digest) {
    String value = digest.checkValue();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert = connection.prepareStatement(WRITE)) {
      insert.setString(1, value);
      insert.executeUpdate();
      LOG.info("Stored the secret pepper's check value: later starts must use the same pepper");
      return value;
    } catch (SQLException e) {
      return stored().orElseThrow(() -> failed(e));
    }
  }

  private Optional<String> stored() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement query = connection.prepareStatement(READ);
        ResultSet row = query.executeQuery()) {
      return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  private static IllegalStateException failed(SQLException e) {
    return new IllegalStateException(
        "the secret pepper's check value cannot be read or stored: " + e.getMessage(), e);
  }
}
