package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.AccountStatus;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.TestSettings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.FreshPostgres;
import dev.platform.identity.key.LegacyKeyRows;
import dev.platform.identity.key.SigningKey;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.key.TestNodes.Node;
import dev.platform.identity.scope.ChannelPermissions;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.ScopeCatalog;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
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
  void whenTheTokenPathReadsAnAccountOrNoneThenItGetsTheAccountOrTheDecoy() {
    try (Database node = Database.open(dataSource())) {
      ServiceAccounts accounts = new ServiceAccounts(node);
      AccountProfile profile =
          new AccountProfile("orders", "org-1", List.of("org-2"), List.of("kitchen:*"), "kitchen");
      UUID id = UUID.randomUUID();
      accounts.add(ServiceAccount.create(id, profile, "digest", NOW));
      ServiceAccount decoy = ServiceAccount.create(UUID.randomUUID(), profile, "decoy", NOW);

      ServiceAccounts.Lookup found = accounts.findOrDecoy(id, decoy);
      ServiceAccounts.Lookup unknown = accounts.findOrDecoy(UUID.randomUUID(), decoy);

      assertTrue(found.found());
      assertEquals(id, found.account().clientId());
      assertEquals(List.of("org-1", "org-2"), found.account().accessibleOrgs());
      assertEquals("digest", found.account().secretDigest());
      assertEquals(NOW, found.account().createdAt());
      assertFalse(unknown.found());
      assertEquals(decoy.clientId(), unknown.account().clientId());
      assertEquals("decoy", unknown.account().secretDigest());
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
      accounts.add(ServiceAccount.create(rotated, profile, "old", NOW.minus(Duration.ofDays(100))));
      accounts.add(ServiceAccount.create(plain, profile, "only", NOW.minus(Duration.ofDays(100))));
      accounts.change(rotated, it -> it.replaceSecret("new", Duration.ofDays(1), NOW));
      ServiceAccount decoy = ServiceAccount.create(UUID.randomUUID(), profile, "decoy-old", NOW);
      decoy.replaceSecret("decoy-new", Duration.ofDays(1000), NOW);

      assertEquals(
          new ServiceAccount.Secrets("new", NOW, "old", NOW.plus(Duration.ofDays(1))),
          accounts.findOrDecoy(rotated, decoy).account().secrets());
      assertEquals(
          new ServiceAccount.Secrets("only", NOW.minus(Duration.ofDays(100)), null, null),
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

  @Test
  void whenTheKeyEncryptionKeyIsRotatedThenRowsAreResealedOnceAndStayTrustedOnEveryNode()
      throws Exception {
    String oldKey = TestSettings.KEK;
    String newKey = Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
    Settings before = kek(oldKey, "");
    LegacyKeyRows legacy = LegacyKeyRows.on(dataSource(), before);
    String kid = legacy.insert(NOW.minus(Duration.ofDays(10)), null);
    legacy.migrateToVersion9(); // migration 11 finds the old key for it, as previous key
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

    try (Node behind = TestNodes.node(dataSource(), kek(oldKey, newKey), clock);
        Node a = TestNodes.node(dataSource(), kek(newKey, oldKey), clock);
        Node b = TestNodes.node(dataSource(), kek(newKey, oldKey), clock)) {
      race(a, b); // both reseal the one row at once: one compare-and-set wins
      a.ring().refresh();
      assertEquals(0, a.ring().sealedUnderPreviousKeys());
      assertEquals(kid, b.ring().current().kid());

      behind.rotation().rotateIfDue(); // phase 2 half-way: reseals it back
      a.ring().refresh();
      assertEquals(1, a.ring().sealedUnderPreviousKeys());
      a.rotation().rotateIfDue();
      behind.rotation().revoke(kid); // reads the row FOR UPDATE, MAC under the row's key

      b.rotation().rotateIfDue();
      assertEquals(0, b.ring().sealedUnderPreviousKeys());
      assertTrue(revoked(b, kid), "the revocation was not overwritten, and B trusts the row");
      assertTrue(revoked(behind, kid));
    }
  }

  private static Settings kek(String current, String previous) {
    return TestSettings.with(
        Map.of(
            JndiSettings.KEY_ENCRYPTION_KEY, current,
            JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS, previous));
  }

  private static boolean revoked(Node node, String kid) {
    return node.keys().all().stream()
        .filter(key -> key.kid().equals(kid))
        .anyMatch(key -> key.revokedAt().isPresent());
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
