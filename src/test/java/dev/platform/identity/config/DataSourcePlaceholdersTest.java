package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import javax.sql.DataSource;
import org.apache.tomcat.dbcp.dbcp2.BasicDataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Issue 36 item 12: an unresolved ${...} in the database resource stops the start, named. */
class DataSourcePlaceholdersTest {
  /** Tomcat's pool as conf/tomcat/context-production.xml makes it, the property not set. */
  static BasicDataSource tomcatPool(String url, String user, String password) {
    BasicDataSource pool = new BasicDataSource();
    pool.setDriverClassName("org.postgresql.Driver");
    pool.setUrl(url);
    pool.setUsername(user);
    pool.setPassword(password);
    return pool;
  }

  @Test
  void whenTomcatsPasswordIsAnUnresolvedPropertyThenTheStartFailsNamingIt() {
    BasicDataSource pool =
        tomcatPool("jdbc:postgresql://127.0.0.1:1/identity", "identity", "${identity.db.password}");

    String message =
        assertThrows(
                InvalidSettingException.class,
                () -> DataSourcePlaceholders.check("jdbc/identity", pool))
            .getMessage();

    assertEquals(
        "java:comp/env/jdbc/identity has password=\"${identity.db.password}\" in its resource, an"
            + " unresolved placeholder: no system property identity.db.password is set (Tomcat:"
            + " conf/catalina.properties)",
        message);
    assertEquals(0, pool.getNumActive() + pool.getNumIdle(), "no connection was tried");
  }

  @Test
  void whenThePlaceholderIsInsideTheUrlOrTheUserThenItIsNamedToo() {
    String url =
        assertThrows(
                InvalidSettingException.class,
                () ->
                    DataSourcePlaceholders.check(
                        "jdbc/identity",
                        tomcatPool("jdbc:postgresql://${identity.db.host}:5432/x", "u", "p")))
            .getMessage();
    PGSimpleDataSource postgres = new PGSimpleDataSource();
    postgres.setUser("${ENV=IDENTITY_DB_USER}");
    String user =
        assertThrows(
                InvalidSettingException.class,
                () -> DataSourcePlaceholders.check("jdbc/identity", postgres))
            .getMessage();

    assertTrue(url.contains("url=\"${identity.db.host}\"") && url.contains("identity.db.host"));
    assertTrue(user.contains("no environment variable IDENTITY_DB_USER is set"), user);
  }

  @Test
  void whenAPasswordOnlyContainsAPlaceholderThenNoneOfItsTextIsShown() {
    BasicDataSource pool = tomcatPool("jdbc:h2:mem:x", "sa", "s3cr3t-${half}-rest");

    String message =
        assertThrows(
                InvalidSettingException.class,
                () -> DataSourcePlaceholders.check("jdbc/identity", pool))
            .getMessage();

    assertEquals(
        "java:comp/env/jdbc/identity has a password with an unresolved ${...} placeholder in it",
        message);
    assertFalse(message.contains("s3cr3t") || message.contains("half"), message);
  }

  @Test
  void whenTheValuesAreResolvedOrThePoolTellsNoneThenTheStartGoesOn() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:placeholders");
    h2.setUser("sa");
    h2.setPassword("a-real-password");

    assertDoesNotThrow(() -> DataSourcePlaceholders.check("jdbc/identity", h2));
    assertDoesNotThrow(
        () ->
            DataSourcePlaceholders.check(
                "jdbc/identity", tomcatPool("jdbc:h2:mem:y", "sa", "$not{a-placeholder")));
    assertDoesNotThrow(() -> DataSourcePlaceholders.check("jdbc/identity", opaque()));
  }

  /** A server's own wrapper (Payara's): no getter for its URL, user or password; never called. */
  static DataSource opaque() {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              throw new AssertionError(method.getName() + " was called");
            });
  }
}
