package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.Settings.BootstrapAccount;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  static final Pattern PRINTED_SECRET = Pattern.compile("client_secret: (\\S+)");

  final SecretDigest digest = new SecretDigest(new SecretKeySpec(new byte[32], "HmacSHA256"));
  final LogCapture log = LogCapture.of(Bootstrap.class.getName());

  @AfterEach
  void releaseLog() {
    log.close();
  }

  static Settings.Bootstrap settings(Optional<BootstrapAccount> bootstrap) {
    return settings(bootstrap, Optional.empty());
  }

  static Settings.Bootstrap settings(
      Optional<BootstrapAccount> bootstrap, Optional<Path> secretFile) {
    return new Settings.Bootstrap(bootstrap, "root", secretFile);
  }

  Bootstrap bootstrap(Database database) {
    return new Bootstrap(new ServiceAccounts(database), digest, CLOCK, new SecureRandom());
  }

  @Test
  void whenNothingConfiguredAndEmptyThenAnAdminIsGeneratedAndPrintedOnce() throws SQLException {
    try (Database database = TestDatabases.h2()) {
      bootstrap(database).run(settings(Optional.empty()));
      bootstrap(database).run(settings(Optional.empty()));

      List<String> banners =
          log.messages().stream().filter(m -> m.contains("client_secret:")).toList();
      assertEquals(1, banners.size());
      Matcher secret = PRINTED_SECRET.matcher(banners.get(0));
      assertTrue(secret.find());
      List<ServiceAccount> all = new ServiceAccounts(database).list(Optional.empty());
      assertEquals(1, all.size());
      ServiceAccount admin = all.get(0);
      assertEquals(List.of(Bootstrap.ADMIN_SCOPE), admin.scopes());
      assertEquals("root", admin.organizationId());
      assertTrue(banners.get(0).contains(admin.clientId().toString()));
      assertTrue(digest.matches(secret.group(1), admin.secretDigest()));
      assertFalse(tableText(database).contains(secret.group(1)), "the secret is stored");
      List<String> events =
          database.read(
              em ->
                  em.createNativeQuery(
                          "select event || ' ' || target || ' ' || organization_id || ' ' || detail"
                              + " from audit_event")
                      .getResultList());
      assertEquals(
          List.of("bootstrap " + admin.clientId() + " root {\"administrator\":\"generated\"}"),
          events,
          "one audit event, stored with the account");
    }
  }

  @Test
  void whenConfiguredThenCreatedOnceWithAdminScopeAndNothingPrinted() throws SQLException {
    UUID id = UUID.randomUUID();
    String secret = "configured-bootstrap-secret-0123456789";
    Settings.Bootstrap settings = settings(Optional.of(new BootstrapAccount(id, secret)));
    try (Database database = TestDatabases.h2()) {
      bootstrap(database).run(settings);
      bootstrap(database).run(settings);

      ServiceAccount admin = new ServiceAccounts(database).find(id).orElseThrow();
      assertEquals(List.of(Bootstrap.ADMIN_SCOPE), admin.scopes());
      assertTrue(digest.matches(secret, admin.secretDigest()));
      assertEquals(1, new ServiceAccounts(database).list(Optional.empty()).size());
      assertTrue(log.messages().stream().noneMatch(m -> m.contains(secret)));
      assertFalse(tableText(database).contains(secret));
    }
  }

  @Test
  void whenAccountsExistThenNothingIsGenerated() {
    try (Database database = TestDatabases.h2()) {
      new ServiceAccounts(database)
          .add(
              ServiceAccount.create(
                  UUID.randomUUID(),
                  TestAccounts.catalogReader(),
                  TestAccounts.digest("d"),
                  CLOCK.instant()));

      bootstrap(database).run(settings(Optional.empty()));

      assertEquals(1, new ServiceAccounts(database).list(Optional.empty()).size());
      assertTrue(log.messages().isEmpty());
    }
  }

  @Test
  void whenTwoNodesStartTogetherOnAnEmptyDatabaseThenOneAdminIsGenerated() {
    String name = "race-" + UUID.randomUUID();
    try (Database nodeA = Database.open(TestDatabases.h2DataSource(name));
        Database nodeB = Database.open(TestDatabases.h2DataSource(name))) {
      CompletableFuture<Void> a =
          CompletableFuture.runAsync(() -> bootstrap(nodeA).run(settings(Optional.empty())));
      CompletableFuture<Void> b =
          CompletableFuture.runAsync(() -> bootstrap(nodeB).run(settings(Optional.empty())));
      CompletableFuture.allOf(a, b).join();

      assertEquals(1, new ServiceAccounts(nodeA).list(Optional.empty()).size());
      assertEquals(1, log.messages().stream().filter(m -> m.contains("client_secret:")).count());
    }
  }

  @Test
  void whenOutputIsAFileThenTheCredentialsAreWrittenOwnerOnlyAndTheLogSaysOnlyWhere(
      @TempDir Path folder) throws IOException {
    Path file = folder.resolve("bootstrap-admin.txt");
    try (Database database = TestDatabases.h2()) {
      bootstrap(database).run(settings(Optional.empty(), Optional.of(file)));
      bootstrap(database).run(settings(Optional.empty(), Optional.of(file)));

      ServiceAccount admin =
          new ServiceAccounts(database).list(Optional.empty()).stream().findFirst().orElseThrow();
      String content = Files.readString(file);
      Matcher secret = Pattern.compile("client_secret=(\\S+)").matcher(content);
      assertTrue(secret.find(), content);
      assertTrue(content.contains("client_id=" + admin.clientId()), content);
      assertTrue(digest.matches(secret.group(1), admin.secretDigest()));
      if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
        assertEquals(
            "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      }
      try (var files = Files.list(folder)) {
        assertEquals(List.of(file), files.toList(), "no staged file is left behind");
      }
      assertEquals(1, log.messages().size(), log.messages().toString());
      String line = log.messages().get(0);
      assertTrue(line.contains(admin.clientId().toString()), line);
      assertTrue(line.contains(file.toString()), line);
      assertTrue(line.contains("read it, store it, delete the file"), line);
      assertFalse(line.contains(secret.group(1)), "the log carries the secret");
    }
  }

  @Test
  void whenTheFileCannotBeWrittenThenNoAdministratorIsCreated(@TempDir Path folder) {
    Path file = folder.resolve("gone").resolve("bootstrap-admin.txt");
    try (Database database = TestDatabases.h2()) {
      assertThrows(
          UncheckedIOException.class,
          () -> bootstrap(database).run(settings(Optional.empty(), Optional.of(file))));

      assertTrue(new ServiceAccounts(database).isEmpty());
      assertTrue(log.messages().isEmpty());
    }
  }

  @Test
  void whenTheFileCannotBePublishedThenTheAdministratorIsRemovedAndTheNextStartGeneratesOne(
      @TempDir Path folder) throws IOException {
    Path file = Files.createDirectory(folder.resolve("bootstrap-admin.txt"));
    Files.writeString(file.resolve("occupied"), "a folder where the file should go");
    try (Database database = TestDatabases.h2()) {
      assertThrows(
          UncheckedIOException.class,
          () -> bootstrap(database).run(settings(Optional.empty(), Optional.of(file))));

      assertTrue(new ServiceAccounts(database).isEmpty(), "no administrator without a secret");
      try (var files = Files.list(folder)) {
        assertEquals(List.of(file), files.toList(), "no staged file is left behind");
      }

      Files.delete(file.resolve("occupied"));
      Files.delete(file);
      bootstrap(database).run(settings(Optional.empty(), Optional.of(file)));

      assertEquals(1, new ServiceAccounts(database).list(Optional.empty()).size());
      assertTrue(Files.readString(file).contains("client_secret="));
    }
  }

  /** Every value of every row of the account table, as text. */
  static String tableText(Database database) throws SQLException {
    StringBuilder text = new StringBuilder();
    try (Connection connection = database.dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("select * from service_account")) {
      int columns = rows.getMetaData().getColumnCount();
      while (rows.next()) {
        for (int i = 1; i <= columns; i++) {
          text.append(rows.getString(i)).append('\n');
        }
      }
    }
    return text.toString();
  }
}
