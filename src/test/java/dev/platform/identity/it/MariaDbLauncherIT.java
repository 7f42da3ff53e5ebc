package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.FreshMariaDb;
import dev.platform.identity.it.LauncherIT.Launched;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42 item 4: {@code conf/tomcat/context-mariadb.xml}, its host, database, user and issuer
 * changed for this machine, given to the launcher (Tomcat's pool, Connector/J from the launcher's
 * lib/ as from Tomcat's) on a fresh MariaDB database owned by a new user with a password: tokens
 * are issued; a wrong database, user or port, and a URL without the options the service requires,
 * stop the start naming java:comp/env/jdbc/identity and the URL, and never a password.
 */
@EnabledIfSystemProperty(named = "identity.mariadb.url", matches = ".+")
class MariaDbLauncherIT {
  /** Distinctive, so that the output can be searched for them. */
  static final String URL_PASSWORD = "url-password-never-shown-4711";

  static final String ATTRIBUTE_PASSWORD = "attribute-password-never-shown-4712";

  @TempDir Path folder;

  FreshMariaDb database;
  String user;
  String password;

  @BeforeEach
  void createDatabaseAndUser() throws Exception {
    database = FreshMariaDb.create("identity_launcher");
    byte[] random = new byte[12];
    new SecureRandom().nextBytes(random);
    user = "identity_" + HexFormat.of().formatHex(random, 0, 4);
    password = "db-" + HexFormat.of().formatHex(random, 4, 12);
    // As docs/configuration.md "MariaDB" says: the user may do anything in its database alone.
    root("create user '" + user + "'@'127.0.0.1' identified by '" + password + "'");
    root("grant all privileges on `" + database.name() + "`.* to '" + user + "'@'127.0.0.1'");
    Path secrets = Files.createDirectory(folder.resolve("identity"));
    ownerOnly(secrets.resolve("key-encryption-key"), ProductionServer.KEK);
    ownerOnly(secrets.resolve("secret-pepper"), ProductionServer.PEPPER);
  }

  @AfterEach
  void dropDatabaseAndUser() throws Exception {
    try {
      database.close();
    } finally {
      root("drop user if exists '" + user + "'@'127.0.0.1'");
    }
  }

  static void root(String sql) throws Exception {
    try (Connection connection =
            DriverManager.getConnection(System.getProperty("identity.mariadb.url"));
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  static void ownerOnly(Path file, String text) throws Exception {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }

  /** The example with this machine's database (reached at {@code port}), user and issuer. */
  ConfExample example(int port, String issuer) throws Exception {
    return ConfExample.read("conf/tomcat/context-mariadb.xml")
        .replace("jdbc:mariadb://db.internal:3306/identity?", url(port, database.name()))
        .replace("username=\"identity\"", "username=\"" + user + "\"")
        .replace("${catalina.base}/conf/identity", folder.resolve("identity").toString())
        .replace("value=\"https://identity.example.com\"", "value=\"" + issuer + "\"")
        .replace(
            "name=\"identity/rateLimitStore\" value=\"memory\"",
            "name=\"identity/rateLimitStore\" value=\"database\"");
  }

  static String url(int port, String name) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + name + "?";
  }

  Path write(ConfExample context) throws Exception {
    Path file = folder.resolve("context.xml");
    Files.writeString(file, context.text());
    return file;
  }

  @Test
  void whenTheExampleIsGivenItsDatabaseThenTokensAreIssuedAndItsTimeoutsHold() throws Exception {
    int port = LauncherIT.freePort();
    Path context = write(example(3306, "http://127.0.0.1:" + port));
    try (Launched launched =
        new Launched(
            List.of("-Didentity.db.password=" + password),
            port,
            "--data",
            folder.resolve("data").toString(),
            "--context",
            context.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      Properties admin =
          ProductionServer.bootstrapAdministrator(folder.resolve("identity/bootstrap-admin.txt"));
      Http http = new Http(new URL("http://127.0.0.1:" + port + "/"));
      new SmokeSuite(http, admin.getProperty("client_id"), admin.getProperty("client_secret"))
          .run();
      assertFalse(launched.output().contains(password), launched.output());
    }
    // The example's URL, as Connector/J takes it: UTC, and the server's own deadlines.
    String exampleUrl =
        example(3306, "").text().replaceAll("(?s).*url=\"([^\"]*)\".*", "$1").replace("&amp;", "&");
    try (Connection connection = DriverManager.getConnection(exampleUrl, user, password);
        ResultSet row =
            connection
                .createStatement()
                .executeQuery(
                    "select @@session.max_statement_time, @@session.innodb_lock_wait_timeout,"
                        + " @@session.sql_mode, (select count(*) from service_account)")) {
      row.next();
      assertEquals(10.0, row.getDouble(1), exampleUrl);
      assertEquals(3, row.getInt(2), exampleUrl);
      assertTrue(row.getString(3).contains("STRICT_TRANS_TABLES"), row.getString(3));
      assertTrue(row.getInt(4) >= 1, "the accounts are in MariaDB");
    }
  }

  @Test
  void whenTheDatabaseDoesNotExistThenTheStartNamesTheResourceAndUrl() throws Exception {
    assertStopsNaming(
        example(3306, "http://127.0.0.1:1")
            .replace(url(3306, database.name()), url(3306, "no_such_identity")),
        List.of(),
        url(3306, "no_such_identity"),
        "cannot be reached");
  }

  @Test
  void whenTheUserAndPasswordAreWrongThenTheStartNamesTheResourceAndUrlButNoPassword()
      throws Exception {
    // A password in the URL and another in the attribute: neither may be shown.
    ConfExample context =
        example(3306, "http://127.0.0.1:1")
            .replace(
                url(3306, database.name()),
                url(3306, database.name()) + "password=" + URL_PASSWORD + "&amp;")
            .replace("username=\"" + user + "\"", "username=\"nobody_here\"")
            .replace(
                "password=\"${identity.db.password}\"", "password=\"" + ATTRIBUTE_PASSWORD + "\"");
    String output =
        assertStopsNaming(
            context,
            List.of(),
            url(3306, database.name()) + "password=(hidden)&",
            "cannot be reached");
    assertTrue(output.contains("nobody_here"), output);
  }

  @Test
  void whenNothingListensAtThePortThenTheStartNamesTheResourceAndUrl() throws Exception {
    int closed = LauncherIT.freePort();
    assertStopsNaming(
        example(closed, "http://127.0.0.1:1"),
        List.of(),
        url(closed, database.name()),
        "cannot be reached");
  }

  /**
   * Without {@code connectionTimeZone=UTC&preserveInstants=true}, a JVM outside UTC would write
   * every expiry in its own zone: MariaDbSession's check refuses the start and says what to add.
   */
  @Test
  void whenTheUrlLacksTheUtcOptionsThenTheStartRefusesSayingWhatToAdd() throws Exception {
    ConfExample context =
        example(3306, "http://127.0.0.1:1")
            .replace("connectionTimeZone=UTC&amp;preserveInstants=true&amp;", "");
    assertStopsNaming(
        context,
        List.of("-Duser.timezone=Asia/Tokyo"),
        "java:comp/env/jdbc/identity writes times to MariaDB in the JVM's zone, not in UTC",
        "add connectionTimeZone=UTC&preserveInstants=true to its URL");
  }

  /** The launcher on {@code context} exits non-zero, its output saying each of {@code said}. */
  String assertStopsNaming(ConfExample context, List<String> jvm, String... said) throws Exception {
    Path file = write(context);
    List<String> options = new java.util.ArrayList<>(List.of("-Didentity.db.password=" + password));
    options.addAll(jvm);
    try (Launched launched =
        new Launched(
            options,
            LauncherIT.freePort(),
            "--data",
            folder.resolve("data").toString(),
            "--context",
            file.toString())) {
      assertFalse(launched.awaitListening(), launched.output());
      assertTrue(launched.process.waitFor(60, TimeUnit.SECONDS));
      assertNotEquals(0, launched.process.exitValue());
      String output = launched.output();
      if (!said[0].startsWith("java:")) {
        assertTrue(output.contains("java:comp/env/jdbc/identity (" + said[0]), output);
      }
      for (String text : said) {
        assertTrue(output.contains(text), "'" + text + "' not in:\n" + output);
      }
      for (String secret : List.of(password, URL_PASSWORD, ATTRIBUTE_PASSWORD)) {
        assertFalse(output.contains(secret), "a password in:\n" + output);
      }
      System.out.printf(
          "MariaDB start refused: %s%n",
          output.lines().filter(line -> line.contains("jdbc/identity")).findFirst().orElse("?"));
      return output;
    }
  }
}
