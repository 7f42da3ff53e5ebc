package dev.platform.identity.db;

import dev.platform.identity.config.DataSourcePlaceholders;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.persistence.config.PersistenceUnitProperties;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * The one way to the database: migrates it, then runs each unit of work with its own EntityManager,
 * each write in its own transaction.
 */
public final class Database implements AutoCloseable {
  /** The container-managed DataSource (DESIGN "Shape"). */
  static final String DATA_SOURCE = "jdbc/identity";

  private final Vendor vendor;
  private final DataSource guarded;
  private final Migrations migrations;
  private final EntityManagerFactory factory;

  private Database(
      Vendor vendor, DataSource guarded, Migrations migrations, EntityManagerFactory factory) {
    this.vendor = vendor;
    this.guarded = guarded;
    this.migrations = migrations;
    this.factory = factory;
  }

  /**
   * Migrates the database behind {@code java:comp/env/jdbc/identity}, with {@code javaMigrations}
   * beside the scripts, and opens it.
   */
  public static Database fromJndi(JavaMigration... javaMigrations) {
    return fromJndi(DatabaseGuard.unlimited(), javaMigrations);
  }

  /** The same, its work under {@code guard} once migrated. */
  public static Database fromJndi(DatabaseGuard guard, JavaMigration... javaMigrations) {
    DataSource dataSource;
    try {
      dataSource = (DataSource) new InitialContext().lookup("java:comp/env/" + DATA_SOURCE);
    } catch (NamingException e) {
      throw new IllegalStateException(
          "java:comp/env/" + DATA_SOURCE + " is not bound: configure the DataSource", e);
    }
    // Before the first connection, which would send an unresolved ${...} as the password.
    DataSourcePlaceholders.check(DATA_SOURCE, dataSource);
    return open(dataSource, guard, javaMigrations);
  }

  /**
   * Migrates the database to the newest schema and opens a persistence unit of its own on it. Each
   * call gets its own EclipseLink session, as a separate node would. The service passes the Java
   * migrations that need its settings (the signing keys' row MACs); a test that leaves them out
   * gets the schema without their steps, which a later open with them completes.
   */
  public static Database open(DataSource dataSource, JavaMigration... javaMigrations) {
    return open(dataSource, DatabaseGuard.unlimited(), javaMigrations);
  }

  /**
   * The same, every unit of work after the migrations under {@code guard}: its connections counted
   * against the bulkhead, its statements under the deadline, which EclipseLink also sets as every
   * query's timeout. The migrations and the readiness probe use the DataSource itself: a start is
   * not refused, and the probe is not a request.
   */
  public static Database open(
      DataSource dataSource, DatabaseGuard guard, JavaMigration... javaMigrations) {
    Vendor vendor = reach(dataSource);
    if (vendor == Vendor.MARIADB) {
      MariaDbSession.check(dataSource);
    }
    Migrations migrations = Migrations.migrate(dataSource, vendor, javaMigrations);
    DataSource guarded = guard.guard(dataSource);
    Map<String, Object> properties = new HashMap<>();
    properties.put(PersistenceUnitProperties.NON_JTA_DATASOURCE, guarded);
    properties.put(PersistenceUnitProperties.SESSION_NAME, "identity-" + UUID.randomUUID());
    if (guard.timeoutSeconds() > 0) {
      properties.put(
          PersistenceUnitProperties.QUERY_TIMEOUT, Integer.toString(guard.timeoutSeconds() * 1000));
    }
    return new Database(
        vendor,
        guarded,
        migrations,
        Persistence.createEntityManagerFactory("identity", properties));
  }

  /**
   * Opens one connection first, so that a database that cannot be reached fails the start with a
   * message naming the resource and its URL, rather than deep in Flyway's or EclipseLink's.
   */
  private static Vendor reach(DataSource dataSource) {
    try (java.sql.Connection connection = dataSource.getConnection()) {
      connection.isValid(1);
      return Vendor.of(connection);
    } catch (java.sql.SQLException e) {
      throw DatabaseUnreachableException.of(dataSource, e);
    }
  }

  /**
   * Runs {@code work} outside any transaction and returns its result: meant for reads, since
   * nothing it changes is committed.
   */
  public <T> T read(Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    try {
      return work.apply(em);
    } finally {
      em.close();
    }
  }

  /**
   * Runs {@code work} in a transaction that commits when it returns and rolls back if it throws.
   */
  public <T> T write(Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    EntityTransaction tx = em.getTransaction();
    try {
      tx.begin();
      T result = work.apply(em);
      tx.commit();
      return result;
    } finally {
      if (tx.isActive()) {
        tx.rollback();
      }
      em.close();
    }
  }

  /** True when the database answers and holds the newest schema (readiness). */
  public boolean isReady() {
    return migrations.isCurrent();
  }

  /** Which database this is (some features need a server database; H2 is for trying out). */
  public Vendor vendor() {
    return vendor;
  }

  /**
   * The DataSource, for the parts that speak JDBC themselves (the rate-limit store): under the
   * guard, as EclipseLink's work is.
   */
  public DataSource dataSource() {
    return guarded;
  }

  @Override
  public void close() {
    factory.close();
  }
}
