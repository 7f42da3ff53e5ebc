package dev.platform.identity.db;

import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * A Flyway migration written in Java because it needs a key from the settings, which no SQL script
 * has (the row MACs, the key-encryption key ids, the pepper ids): an object built with the key and
 * handed to {@link Database#open}. It has no checksum (there is no script text to change) and runs
 * in the migration's transaction, like the SQL scripts.
 */
public abstract class KeyedMigration implements JavaMigration {
  private final MigrationVersion version;
  private final String description;

  protected KeyedMigration(String version, String description) {
    this.version = MigrationVersion.fromVersion(version);
    this.description = description;
  }

  @Override
  public final MigrationVersion getVersion() {
    return version;
  }

  @Override
  public final String getDescription() {
    return description;
  }

  @Override
  public final Integer getChecksum() {
    return null;
  }

  @Override
  public final boolean canExecuteInTransaction() {
    return true;
  }
}
