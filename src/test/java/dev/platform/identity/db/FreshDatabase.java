package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A new, empty database on one of the database servers the build was given ({@link
 * DatabaseServer}), dropped again on close: one per test, so runs never share state.
 */
public abstract class FreshDatabase implements AutoCloseable {
  private final DatabaseServer server;
  private final String name;

  FreshDatabase(DatabaseServer server, String prefix) throws SQLException {
    this.server = server;
    this.name = prefix + "_" + UUID.randomUUID().toString().replace("-", "");
    admin(createSql(name));
  }

  /** Which server it is on. */
  public final DatabaseServer server() {
    return server;
  }

  /** The database's name. */
  public final String name() {
    return name;
  }

  /** A new DataSource on the database (each call: another node's connections). */
  public abstract DataSource dataSource();

  /**
   * The attributes of a Tomcat {@code <Resource>} for this database, its server reached at {@code
   * port} on 127.0.0.1 (the server's own port, or a proxy's in front of it): driverClassName, url,
   * username and password, XML-escaped.
   */
  public abstract String resourceAttributes(int port);

  /** The same, the server at its own port. */
  public final String resourceAttributes() {
    return resourceAttributes(server.port());
  }

  /**
   * The same, the server at {@code port}, with {@code urlOptions} (each {@code name=value}, as
   * {@link #socketTimeout} and {@link #serverTimeouts} give them) added to the URL.
   */
  public abstract String resourceAttributes(int port, List<String> urlOptions);

  /** The driver's URL option for a socket timeout of {@code timeout}. */
  public abstract String socketTimeout(Duration timeout);

  /**
   * The URL options that give the server's own deadlines to each of a pool's sessions, as the
   * production examples do, or none: what ends a statement whose driver-side cancel was lost.
   */
  public abstract List<String> serverTimeouts();

  /**
   * Holds {@code table} on {@code connection} against every other session's reads and writes until
   * {@link #unlockTables} (a stalled database, as an administrator's long DDL would leave it).
   */
  public abstract void lockTable(Connection connection, String table) throws SQLException;

  /** Releases what {@link #lockTable} holds on {@code connection}. */
  public abstract void unlockTables(Connection connection) throws SQLException;

  /**
   * How many sessions are connected to this database, but for {@code monitor}'s own and {@code
   * excluded}: the service's connections, asked on {@code monitor} (a {@link #connect()}).
   */
  public abstract int otherSessions(Connection monitor, Connection... excluded) throws SQLException;

  /** A connection of the server's administrator to this database (to lock or stall it). */
  public final Connection connect() throws SQLException {
    return dataSource().getConnection();
  }

  abstract String createSql(String name);

  abstract String dropSql(String name);

  @Override
  public void close() throws SQLException {
    admin(dropSql(name));
  }

  private void admin(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(server.url());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
