package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.AccountStatus;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.db.Database;
import dev.platform.identity.scope.ChannelPermissions;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.ScopeCatalog;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The migrations and the account store on the real PostgreSQL server, in a fresh database per run.
 * Runs with {@code -Ppostgres} (as {@code .ci/run} does), which sets {@code identity.postgres.url}
 * to a URL of the server's maintenance database.
 */
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class PostgresIT {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123456Z");

  final String adminUrl = System.getProperty("identity.postgres.url");
  final String name = "identity_it_" + UUID.randomUUID().toString().replace("-", "");

  @BeforeEach
  void createDatabase() throws SQLException {
    admin("create database " + name);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    admin("drop database if exists " + name + " with (force)");
  }

  void admin(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(adminUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  PGSimpleDataSource dataSource() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(adminUrl.replaceFirst("/[^/?]*(\\?|$)", "/" + name + "$1"));
    return dataSource;
  }

  @Test
  void whenMigratedThenAnAccountMakesTheRoundTripAndChangesAreSeenByAnotherNode() {
    try (Database nodeA = Database.open(dataSource());
        Database nodeB = Database.open(dataSource())) {
      assertTrue(nodeA.isReady());
      ServiceAccounts a = new ServiceAccounts(nodeA);
      ServiceAccounts b = new ServiceAccounts(nodeB);
      UUID id = UUID.randomUUID();
      a.add(
          ServiceAccount.create(
              id,
              new AccountProfile(
                  "orders", "org-1", List.of("org-2"), List.of("kitchen:orders.create"), "kitchen"),
              "digest",
              NOW));

      ServiceAccount read = b.find(id).orElseThrow();
      assertEquals(List.of("org-1", "org-2"), read.accessibleOrgs());
      assertEquals(List.of("kitchen:orders.create"), read.scopes());
      assertEquals(NOW, read.createdAt());

      a.change(id, account -> account.deactivate(NOW.plusSeconds(1)));
      assertEquals(AccountStatus.DEACTIVATED, b.find(id).orElseThrow().status());
    }
  }

  @Test
  void whenMigratedThenTheScopeCatalogIsSeededAndAPutReachesAnotherNode() {
    try (Database nodeA = Database.open(dataSource());
        Database nodeB = Database.open(dataSource())) {
      ScopeCatalog a = new ScopeCatalog(nodeA);
      ScopeCatalog b = new ScopeCatalog(nodeB);
      assertEquals(19, a.list().size());

      assertTrue(a.put("billing:invoices.view", "View invoices.", Optional.empty()));
      b.refresh();

      GrantedScopes granted = b.grant(List.of("billing:invoices.view"), Optional.empty());
      List<String> invoices = List.of("billing.invoices.*");
      assertEquals(new ChannelPermissions(invoices, List.of(), invoices), granted.channels());
      assertEquals(
          List.of("catalog.*"),
          b.grant(List.of("catalog:*"), Optional.empty()).channels().publish());
    }
  }
}
