package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.AccountStatus;
import dev.platform.identity.account.PepperCheck;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.SecretPepperIdMigration;
import dev.platform.identity.account.SecretPeppers;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.TestSettings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import dev.platform.identity.db.MigrationLocations;
import dev.platform.identity.key.LegacyKeyRows;
import dev.platform.identity.key.SigningKey;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.key.TestNodes.Node;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.ScopeCatalog;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
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
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The migrations, the account store and the signing-key race on each real database server the build
 * was given (PostgreSQL with {@code -Ppostgres}, MariaDB with {@code -Pmariadb}, as {@code .ci/run}
 * does both), in a fresh database per test.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class ServerDatabasesIT {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123456Z");

  @Parameter DatabaseServer server;
  FreshDatabase database;

  @BeforeEach
  void createDatabase() throws SQLException {
    database = server.create("identity_it");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    database.close();
  }

  DataSource dataSource() {
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
  void whenThePepperIsRotatedThenOldRowsAreNamedMovedAndCounted() throws SQLException {
    SecretDigest old = new SecretDigest(pepper(1));
    SecretDigest rotated = new SecretDigest(pepper(2), List.of(pepper(1)));
    Flyway.configure()
        .dataSource(dataSource())
        .locations(MigrationLocations.of(dataSource()))
        .target("9")
        .load()
        .migrate();
    UUID plain = UUID.randomUUID();
    UUID inOverlap = UUID.randomUUID();
    try (Connection connection = dataSource().getConnection()) {
      legacyRow(connection, plain, old.of("plain-secret").value(), null);
      legacyRow(connection, inOverlap, old.of("new-secret").value(), old.of("old-secret").value());
    }

    new PepperCheck(dataSource()).verify(old); // the check row of the legacy database

    try (Database node = Database.open(dataSource(), new SecretPepperIdMigration(rotated))) {
      new PepperCheck(dataSource()).verify(rotated);
      new PepperCheck(dataSource()).verify(new SecretDigest(pepper(2)));
      ServiceAccounts accounts = new ServiceAccounts(node);
      ServiceAccount.Secrets secrets = accounts.find(inOverlap).orElseThrow().secrets();
      assertEquals(old.currentPepperId(), secrets.current().pepperId());
      assertEquals(old.currentPepperId(), secrets.previous().pepperId());
      SecretPeppers peppers = new SecretPeppers(accounts, rotated);
      assertEquals(2, peppers.census(NOW).onPreviousPeppers());

      assertTrue(
          accounts.redigest(
              inOverlap,
              SecretDigest.Match.PREVIOUS,
              secrets.previous(),
              rotated.of("old-secret"),
              rotated.checkValue()));
      assertFalse(
          accounts.redigest(
              inOverlap,
              SecretDigest.Match.PREVIOUS,
              secrets.previous(),
              rotated.of("old-secret"),
              rotated.checkValue()),
          "compare-and-set: the old digest is gone");
      assertTrue(
          accounts.redigest(
              plain,
              SecretDigest.Match.CURRENT,
              accounts.find(plain).orElseThrow().secretDigest(),
              rotated.of("plain-secret"),
              rotated.checkValue()));

      ServiceAccount.Secrets moved = accounts.find(inOverlap).orElseThrow().secrets();
      assertEquals(rotated.of("old-secret"), moved.previous());
      assertEquals(secrets.current(), moved.current());
      SecretPeppers.Census census = peppers.census(NOW);
      assertEquals(1, census.onPreviousPeppers());
      assertEquals(
          java.util.Map.of(rotated.currentPepperId(), 2L, old.currentPepperId(), 1L),
          census.byPepper());
      assertEquals(
          java.util.Map.of(rotated.currentPepperId(), 1L, old.currentPepperId(), 1L),
          peppers.census(NOW.plus(Duration.ofDays(2))).byPepper(),
          "an ended overlap counts no more");
    }
  }

  static SecretKeySpec pepper(int fill) {
    byte[] bytes = new byte[32];
    java.util.Arrays.fill(bytes, (byte) fill);
    return new SecretKeySpec(bytes, "HmacSHA256");
  }

  static void legacyRow(Connection connection, UUID id, String digest, String previous)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "insert into service_account (client_id, name, organization_id, accessible_orgs,"
                + " scopes, service_name, status, secret_digest, created_at, updated_at,"
                + " secret_created_at, previous_secret_digest, previous_secret_expires_at)"
                + " values (?, 'legacy', 'org-a', 'org-a', 'catalog:products.view', 'catalog',"
                + " 'ACTIVE', ?, ?, ?, ?, ?, ?)")) {
      OffsetDateTime created =
          OffsetDateTime.ofInstant(NOW.minus(Duration.ofDays(1)), ZoneOffset.UTC);
      insert.setString(1, id.toString());
      insert.setString(2, digest);
      insert.setObject(3, created);
      insert.setObject(4, created);
      insert.setObject(5, created);
      insert.setString(6, previous);
      insert.setObject(
          7,
          previous == null
              ? null
              : OffsetDateTime.ofInstant(NOW.plus(Duration.ofDays(1)), ZoneOffset.UTC));
      insert.executeUpdate();
    }
  }

  @Test
  void whenMigratedThenTheScopeCatalogIsSeededAndAPutReachesAnotherNode() {
    try (Database nodeA = Database.open(dataSource());
        Database nodeB = Database.open(dataSource())) {
      ScopeCatalog a = new ScopeCatalog(nodeA);
      ScopeCatalog b = new ScopeCatalog(nodeB);
      assertEquals(
          22,
          a.list()
              .size()); // 19, identity:audit.read (15), identity:metrics (16), identity:introspect
      // (20)

      assertTrue(a.put("billing:invoices.view", "View invoices.", Optional.empty()));
      b.refresh();

      GrantedScopes granted = b.grant(List.of("billing:invoices.view"), Optional.empty());
      List<String> invoices = List.of("billing.invoices.*");
      assertEquals(new ChannelGrant(invoices, List.of(), invoices), granted.channels());
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
