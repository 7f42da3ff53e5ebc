package dev.platform.identity.key;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.TestSettings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.hsm.SoftHsm;
import dev.platform.identity.web.Startup;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javax.sql.DataSource;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Service nodes for key tests: each has its own EclipseLink session, key ring and rotation on a
 * shared in-memory H2 database, as separate processes on one PostgreSQL would.
 */
public final class TestNodes {
  static final SecureRandom RANDOM = new SecureRandom();

  /** The nodes' refresh runs here, on one daemon thread; a node's close cancels its own. */
  private static final ScheduledExecutorService SCHEDULER =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "test-key-rotation");
            thread.setDaemon(true);
            return thread;
          });

  /** One node. */
  public record Node(Database database, SigningKeys keys, KeyRing ring, KeyRotation rotation)
      implements AutoCloseable {
    @Override
    public void close() {
      rotation.close();
      database.close();
    }
  }

  private TestNodes() {}

  /** A new, empty database's name. */
  static String newDatabase() {
    return "keys-" + UUID.randomUUID();
  }

  /** A node on the named in-memory database; nothing is created until its rotation runs. */
  static Node node(String database, Settings settings, Clock clock) {
    return node(TestDatabases.h2DataSource(database), settings, clock);
  }

  /** A node on {@code dataSource} (migrated on opening); nothing is created until it rotates. */
  public static Node node(DataSource dataSource, Settings settings, Clock clock) {
    Database db = open(dataSource, settings);
    KeyEncryption encryption =
        new KeyEncryption(
            settings.secrets().keyEncryptionKey(),
            settings.secrets().previousKeyEncryptionKeys(),
            RANDOM,
            RsaProvider.jdk());
    // Issue 24: the token of settings.keys().pkcs11(), when set, opened as Startup opens it.
    PrivateKeys privateKeys = PrivateKeys.of(settings.keys(), encryption, clock);
    KeyNode keys = KeyNode.of(db, privateKeys, settings.keys(), clock, RANDOM, SCHEDULER);
    return new Node(db, keys.keys(), keys.ring(), keys.rotation());
  }

  /** Opens {@code dataSource} as a node with {@code settings} does, with its Java migrations. */
  static Database open(DataSource dataSource, Settings settings) {
    JavaMigration[] migrations = Startup.javaMigrations(settings.secrets());
    return Database.open(TestDatabases.migrated(dataSource, migrations), migrations);
  }

  /** The default settings of web.xml, with a random key-encryption key. */
  public static Settings settings() {
    return settings(Map.of());
  }

  /** The defaults with some entries (names relative to java:comp/env) replaced. */
  public static Settings settings(Map<String, String> overrides) {
    Map<String, String> entries = new HashMap<>();
    entries.put(JndiSettings.KEY_ENCRYPTION_KEY, randomKey());
    entries.putAll(overrides);
    return TestSettings.with(entries);
  }

  /**
   * Issue 24: the defaults with key-encryption key {@code kek}, new keys made in {@code keyStore}
   * and the SoftHSM2 {@code token} configured, then {@code overrides}.
   */
  static Settings tokenSettings(
      String kek, SoftHsm.Token token, String keyStore, Map<String, String> overrides) {
    Map<String, String> entries = new HashMap<>();
    entries.put(JndiSettings.KEY_ENCRYPTION_KEY, kek);
    entries.put(JndiSettings.KEY_STORE, keyStore);
    entries.put(JndiSettings.PKCS11_LIBRARY, SoftHsm.requiredLibrary().toString());
    entries.put(JndiSettings.PKCS11_SLOT, Long.toString(token.slot()));
    entries.put(JndiSettings.PKCS11_PIN, SoftHsm.PIN);
    entries.putAll(overrides);
    return settings(entries);
  }

  /** The key encryption of key-encryption key {@code kek} alone. */
  static KeyEncryption encryption(String kek) {
    return new KeyEncryption(
        settings(Map.of(JndiSettings.KEY_ENCRYPTION_KEY, kek)).secrets().keyEncryptionKey(),
        RANDOM);
  }

  /** A random AES-256 key-encryption key as the JNDI entry holds it. */
  static String randomKey() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }
}
