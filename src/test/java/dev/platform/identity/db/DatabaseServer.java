package dev.platform.identity.db;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The database servers an IT may use, each given by a system property that its Maven profile sets:
 * PostgreSQL at 127.0.0.1:5432 ({@code -Ppostgres}), MariaDB at 127.0.0.1:3306 ({@code -Pmariadb}).
 * An IT that runs on each takes {@link #configured()} as its parameters.
 */
public enum DatabaseServer {
  POSTGRESQL("identity.postgres.url", 5432, Vendor.POSTGRESQL, "PostgreSQL"),
  MARIADB("identity.mariadb.url", 3306, Vendor.MARIADB, "MariaDB");

  private final String product;
  private final String property;
  private final int port;
  private final Vendor vendor;

  DatabaseServer(String property, int port, Vendor vendor, String product) {
    this.product = product;
    this.property = property;
    this.port = port;
    this.vendor = vendor;
  }

  /** The servers this build was given, in this order. */
  public static Stream<DatabaseServer> configured() {
    return Arrays.stream(values()).filter(DatabaseServer::isConfigured);
  }

  /** Whether this build was given the server. */
  public boolean isConfigured() {
    String url = System.getProperty(property);
    return url != null && !url.isBlank();
  }

  /** A new empty database on it, named {@code prefix} and a random suffix. */
  public FreshDatabase create(String prefix) throws SQLException {
    return switch (this) {
      case POSTGRESQL -> FreshPostgres.create(prefix);
      case MARIADB -> FreshMariaDb.create(prefix);
    };
  }

  /** The URL of the server's administrative database, as its profile gives it. */
  String url() {
    return System.getProperty(property);
  }

  /** Its port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** Its name as people write it, for reports. */
  public String product() {
    return product;
  }

  /** The database it runs. */
  public Vendor vendor() {
    return vendor;
  }
}
