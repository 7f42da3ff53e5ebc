package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.Settings.BootstrapAccount;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
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

class BootstrapTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
  static final Pattern PRINTED_SECRET = Pattern.compile("client_secret: (\\S+)");

  final SecretDigest digest = new SecretDigest(new SecretKeySpec(new byte[32], "HmacSHA256"));
  final LogCapture log = LogCapture.of(Bootstrap.class.getName());

  @AfterEach
  void releaseLog() {
    log.close();
  }

  static Settings settings(Optional<BootstrapAccount> bootstrap) {
    return new Settings(
        null,
        null,
        null,
        null,
        bootstrap,
        "root",
        2048,
        null,
        Settings.RateLimitStore.MEMORY,
        60,
        java.util.List.of(),
        Settings.RsaEngine.JDK,
        null,
        java.util.List.of(),
        10);
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
    }
  }

  @Test
  void whenConfiguredThenCreatedOnceWithAdminScopeAndNothingPrinted() throws SQLException {
    UUID id = UUID.randomUUID();
    String secret = "configured-bootstrap-secret-0123456789";
    Settings settings = settings(Optional.of(new BootstrapAccount(id, secret)));
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
                  UUID.randomUUID(), TestAccounts.catalogReader(), "d", CLOCK.instant()));

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
