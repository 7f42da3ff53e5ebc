package dev.platform.identity.key;

import dev.platform.identity.config.Settings;
import dev.platform.identity.db.MigrationLocations;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import javax.crypto.SecretKey;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Signing-key rows as the versions before the row MAC wrote them: a database migrated to version 4
 * only, and rows inserted without {@code row_mac}; and, migrated on to version 9, as the versions
 * before the key-encryption key id left them.
 */
public final class LegacyKeyRows {
  private final DataSource dataSource;
  private final KeyEncryption encryption;
  private final SecretKey keyEncryptionKey;

  private LegacyKeyRows(DataSource dataSource, Settings settings) {
    this.dataSource = dataSource;
    this.keyEncryptionKey = settings.secrets().keyEncryptionKey();
    this.encryption = new KeyEncryption(settings.secrets().keyEncryptionKey(), TestNodes.RANDOM);
  }

  /** Migrates {@code dataSource} to the schema of the versions before the MAC (V4). */
  public static LegacyKeyRows on(DataSource dataSource, Settings settings) {
    Flyway.configure()
        .dataSource(dataSource)
        .locations(MigrationLocations.of(dataSource))
        .target("4")
        .load()
        .migrate();
    return new LegacyKeyRows(dataSource, settings);
  }

  /**
   * Migrates {@code dataSource} to the schema of the versions before the key-encryption key id
   * (V9), migration 6 vouching for the rows inserted so far under this key-encryption key.
   */
  public void migrateToVersion9() {
    Flyway.configure()
        .dataSource(dataSource)
        .locations(MigrationLocations.of(dataSource))
        .javaMigrations(new KeyRowMacMigration(keyEncryptionKey))
        .target("9")
        .load()
        .migrate();
  }

  /** A key listed from {@code activeFrom} and signing from then; returns its kid. */
  public String insert(Instant activeFrom, Instant expiresAt) throws SQLException {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);
    insert(material, material.publicKey(), activeFrom, expiresAt);
    return material.kid();
  }

  /** A row whose private key opens for its kid but whose public key is somebody else's. */
  public String insertWithForeignPublicKey(Instant activeFrom) throws SQLException {
    KeyMaterial material = KeyMaterial.generate(2048, encryption, TestNodes.RANDOM);
    insert(material, foreignPublicKey(), activeFrom, null);
    return material.kid();
  }

  /** An X.509 public key of a pair this service never saw. */
  static byte[] foreignPublicKey() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair().getPublic().getEncoded();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void insert(KeyMaterial material, byte[] publicKey, Instant activeFrom, Instant expiresAt)
      throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "insert into signing_key (kid, public_key, private_key, private_key_nonce,"
                    + " schedule_slot, published_at, active_from, expires_at, created_at)"
                    + " values (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      Base64.Encoder base64 = Base64.getEncoder();
      insert.setString(1, material.kid());
      insert.setString(2, base64.encodeToString(publicKey));
      insert.setString(3, base64.encodeToString(material.privateKey().ciphertext()));
      insert.setString(4, base64.encodeToString(material.privateKey().nonce()));
      insert.setString(5, "legacy:" + material.kid());
      insert.setObject(6, activeFrom.atOffset(ZoneOffset.UTC));
      insert.setObject(7, activeFrom.atOffset(ZoneOffset.UTC));
      if (expiresAt == null) {
        insert.setNull(8, Types.TIMESTAMP_WITH_TIMEZONE);
      } else {
        insert.setObject(8, expiresAt.atOffset(ZoneOffset.UTC));
      }
      insert.setObject(9, activeFrom.atOffset(ZoneOffset.UTC));
      insert.executeUpdate();
    }
  }
}
