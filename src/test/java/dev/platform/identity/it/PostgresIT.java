package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.AccountStatus;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.FreshPostgres;
import dev.platform.identity.key.LegacyKeyRows;
import dev.platform.identity.key.SigningKey;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.key.TestNodes.Node;
import dev.platform.identity.scope.ChannelPermissions;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.ScopeCatalog;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The migrations, the account store and the signing-key race on the real PostgreSQL server, in a
 * fresh database per run. Runs with {@code -Ppostgres} (as {@code .ci/run} does), which sets {@code
 * identity.postgres.url} to a URL of the server's maintenance database.
 */
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class PostgresIT {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123456Z");

  FreshPostgres database;

  @BeforeEach
  void createDatabase() throws SQLException {
    database = FreshPostgres.create("identity_it");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    database.close();
  }

  PGSimpleDataSource dataSource() {
    return database.dataSource();
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
              TestAccounts.digest("digest"),
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
  void whenTheTokenPathReadsAnAccountOrNoneThenItGetsTheAccountOrTheDecoy() {
    try (Database node = Database.open(dataSource())) {
      ServiceAccounts accounts = new ServiceAccounts(node);
      AccountProfile profile =
          new AccountProfile("orders", "org-1", List.of("org-2"), List.of("kitchen:*"), "kitchen");
      UUID id = UUID.randomUUID();
      accounts.add(ServiceAccount.create(id, profile, TestAccounts.digest("digest"), NOW));
      ServiceAccount decoy =
          ServiceAccount.create(UUID.randomUUID(), profile, TestAccounts.digest("decoy"), NOW);

      ServiceAccounts.Lookup found = accounts.findOrDecoy(id, decoy);
      ServiceAccounts.Lookup unknown = accounts.findOrDecoy(UUID.randomUUID(), decoy);

      assertTrue(found.found());
      assertEquals(id, found.account().clientId());
      assertEquals(List.of("org-1", "org-2"), found.account().accessibleOrgs());
      assertEquals(TestAccounts.digest("digest"), found.account().secretDigest());
      assertEquals(NOW, found.account().createdAt());
      assertFalse(unknown.found());
      assertEquals(decoy.clientId(), unknown.account().clientId());
      assertEquals(TestAccounts.digest("decoy"), unknown.account().secretDigest());
      assertEquals(NOW, unknown.account().updatedAt());
      assertEquals(1, accounts.list(Optional.empty()).size());
    }
  }

  @Test
  void whenAnAccountIsInASecretOverlapThenTheTokenPathAndTheSecretAgeListReadIt() {
    try (Database node = Database.open(dataSource())) {
      ServiceAccounts accounts = new ServiceAccounts(node);
      AccountProfile profile =
          new AccountProfile("orders", "org-1", List.of(), List.of("kitchen:*"), "kitchen");
      UUID rotated = UUID.randomUUID();
      UUID plain = UUID.randomUUID();
      accounts.add(
          ServiceAccount.create(
              rotated, profile, TestAccounts.digest("old"), NOW.minus(Duration.ofDays(100))));
      accounts.add(
          ServiceAccount.create(
              plain, profile, TestAccounts.digest("only"), NOW.minus(Duration.ofDays(100))));
      accounts.change(
          rotated, it -> it.replaceSecret(TestAccounts.digest("new"), Duration.ofDays(1), NOW));
      ServiceAccount decoy =
          ServiceAccount.create(UUID.randomUUID(), profile, TestAccounts.digest("decoy-old"), NOW);
      decoy.replaceSecret(TestAccounts.digest("decoy-new"), Duration.ofDays(1000), NOW);

      assertEquals(
          new ServiceAccount.Secrets(
              TestAccounts.digest("new"),
              NOW,
              TestAccounts.digest("old"),
              NOW.plus(Duration.ofDays(1))),
          accounts.findOrDecoy(rotated, decoy).account().secrets());
      assertEquals(
          new ServiceAccount.Secrets(
              TestAccounts.digest("only"), NOW.minus(Duration.ofDays(100)), null, null),
          accounts.findOrDecoy(plain, decoy).account().secrets());
      assertEquals(
          decoy.secrets(), accounts.findOrDecoy(UUID.randomUUID(), decoy).account().secrets());
      assertEquals(
          List.of(plain),
          accounts.list(Optional.of("org-1"), Optional.of(NOW.minus(Duration.ofDays(80)))).stream()
              .map(ServiceAccount::clientId)
              .toList());
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

  @Test
  void whenTwoNodesRaceForTheFirstAndTheNextSigningKeyThenEachTimeExactlyOneIsCreated()
      throws Exception {
    Settings settings = TestNodes.settings();
    Instant due = NOW.plus(Duration.ofDays(90)).minus(Duration.ofHours(24));
    for (Instant time : List.of(NOW, due)) {
      Clock clock = Clock.fixed(time, ZoneOffset.UTC);
      try (Node a = TestNodes.node(dataSource(), settings, clock);
          Node b = TestNodes.node(dataSource(), settings, clock)) {
        assertEquals(1, race(a, b), "nodes that created a key at " + time);
        b.ring().refresh();
        assertEquals(a.ring().current().kid(), b.ring().current().kid());
      }
    }
    try (Node a = TestNodes.node(dataSource(), settings, Clock.fixed(due, ZoneOffset.UTC))) {
      List<SigningKey> keys = a.keys().all();
      assertEquals(2, keys.size());
      assertEquals(NOW, keys.get(0).activeFrom());
      assertEquals(NOW.plus(Duration.ofDays(90)), keys.get(1).activeFrom());
      assertEquals(
          Optional.of(keys.get(1).activeFrom().plus(Duration.ofHours(25))),
          keys.get(0).expiresAt());
    }
  }

  @Test
  void whenKeyRowsPredateTheRowMacThenTheMigrationVouchesForTheWholeOnesOnly() throws Exception {
    Settings settings = TestNodes.settings();
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource(), settings);
    String whole = legacy.insert(NOW.minus(Duration.ofDays(10)), null);
    String swapped = legacy.insertWithForeignPublicKey(NOW.minus(Duration.ofDays(1)));

    try (Node node = TestNodes.node(dataSource(), settings, Clock.fixed(NOW, ZoneOffset.UTC))) {
      assertFalse(node.rotation().rotateIfDue(), "the old current key still signs");

      assertEquals(whole, node.ring().current().kid());
      assertTrue(node.ring().publicKey(swapped).isEmpty());
      assertEquals(List.of(whole), node.keys().all().stream().map(SigningKey::kid).toList());
    }
  }

  /** Both nodes run their scheduled step at once; returns how many of them created a key. */
  private static int race(Node a, Node b) throws Exception {
    CyclicBarrier barrier = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      int created = 0;
      for (Future<Boolean> result :
          threads.invokeAll(List.of(step(a, barrier), step(b, barrier)))) {
        created += result.get() ? 1 : 0;
      }
      return created;
    } finally {
      threads.shutdownNow();
    }
  }

  private static Callable<Boolean> step(Node node, CyclicBarrier barrier) {
    return () -> {
      barrier.await();
      return node.rotation().rotateIfDue();
    };
  }
}
