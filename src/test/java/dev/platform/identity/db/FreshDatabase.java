package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
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
