package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.db.Vendor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 19: an account holds a current secret and, during an overlap, the one it replaced. */
class SecretOverlapTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  final Database database = TestDatabases.h2();
  final ServiceAccounts accounts = new ServiceAccounts(database);

  @AfterEach
  void close() {
    database.close();
  }

  ServiceAccount stored(String digest, Instant createdAt) {
    ServiceAccount account =
        ServiceAccount.create(
            UUID.randomUUID(),
            TestAccounts.catalogReader(),
            TestAccounts.digest(digest),
            createdAt);
    accounts.add(account);
    return account;
  }

  ServiceAccount decoy() {
    ServiceAccount decoy =
        ServiceAccount.create(
            UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("decoy-old"), NOW);
    decoy.replaceSecret(TestAccounts.digest("decoy-new"), Duration.ofDays(1000), NOW);
    return decoy;
  }

  @Test
  void whenRotatedWithAnOverlapThenThePreviousDigestWorksUntilItsExpiry() {
    ServiceAccount account = stored("first", NOW);
    Instant later = NOW.plus(Duration.ofDays(30));

    accounts.change(
        account.clientId(),
        it -> it.replaceSecret(TestAccounts.digest("second"), Duration.ofHours(24), later));

    ServiceAccount read = accounts.find(account.clientId()).orElseThrow();
    ServiceAccount.Secrets secrets = read.secrets();
    assertEquals(TestAccounts.digest("second"), secrets.current());
    assertEquals(later, secrets.currentCreatedAt());
    assertEquals(
        Optional.of(TestAccounts.digest("first")), secrets.previousAt(later.plusSeconds(1)));
    assertEquals(
        Optional.of(later.plus(Duration.ofHours(24))), read.previousSecretExpiresAt(later));
    Instant end = later.plus(Duration.ofHours(24));
    assertEquals(Optional.empty(), secrets.previousAt(end));
    assertEquals(Optional.empty(), read.previousSecretExpiresAt(end));
  }

  @Test
  void whenRotatedWithoutAnOverlapThenThereIsNoPreviousSecret() {
    ServiceAccount account = stored("first", NOW);

    accounts.change(
        account.clientId(),
        it -> it.replaceSecret(TestAccounts.digest("second"), NOW.plusSeconds(5)));

    ServiceAccount.Secrets secrets = accounts.find(account.clientId()).orElseThrow().secrets();
    assertEquals(TestAccounts.digest("second"), secrets.current());
    assertNull(secrets.previous());
    assertNull(secrets.previousExpiresAt());
  }

  @Test
  void whenRotatedAgainDuringAnOverlapThenTheOlderOverlapEndsAtOnce() {
    ServiceAccount account = stored("first", NOW);
    accounts.change(
        account.clientId(),
        it -> it.replaceSecret(TestAccounts.digest("second"), Duration.ofDays(7), NOW));
    Instant hourLater = NOW.plus(Duration.ofHours(1));

    accounts.change(
        account.clientId(),
        it -> it.replaceSecret(TestAccounts.digest("third"), Duration.ofHours(2), hourLater));

    ServiceAccount.Secrets secrets = accounts.find(account.clientId()).orElseThrow().secrets();
    assertEquals(TestAccounts.digest("third"), secrets.current());
    assertEquals(TestAccounts.digest("second"), secrets.previous());
    assertEquals(hourLater.plus(Duration.ofHours(2)), secrets.previousExpiresAt());
  }

  @Test
  void whenTheTokenPathReadsAnAccountInAnOverlapThenBothDigestsComeBackInOneRow() {
    ServiceAccount account = stored("first", NOW);
    accounts.change(
        account.clientId(),
        it -> it.replaceSecret(TestAccounts.digest("second"), Duration.ofDays(7), NOW));

    ServiceAccount.Secrets secrets =
        accounts.findOrDecoy(account.clientId(), decoy()).account().secrets();

    assertEquals(
        new ServiceAccount.Secrets(
            TestAccounts.digest("second"),
            NOW,
            TestAccounts.digest("first"),
            NOW.plus(Duration.ofDays(7))),
        secrets);
  }

  @Test
  void whenTheTokenPathReadsAnAccountWithoutAPreviousSecretThenItNeverGetsTheDecoys() {
    ServiceAccount account = stored("only", NOW);

    ServiceAccount.Secrets secrets =
        accounts.findOrDecoy(account.clientId(), decoy()).account().secrets();

    assertEquals(new ServiceAccount.Secrets(TestAccounts.digest("only"), NOW, null, null), secrets);
  }

  @Test
  void whenNoAccountThenTheDecoyComesBackWithItsPreviousSecret() {
    ServiceAccount decoy = decoy();

    ServiceAccounts.Lookup lookup = accounts.findOrDecoy(UUID.randomUUID(), decoy);

    assertEquals(false, lookup.found());
    assertEquals(decoy.secrets(), lookup.account().secrets());
  }

  @Test
  void whenListedBySecretAgeThenOnlyOlderCurrentSecretsAppear() {
    ServiceAccount old = stored("old", NOW.minus(Duration.ofDays(100)));
    ServiceAccount rotated = stored("rotated", NOW.minus(Duration.ofDays(100)));
    accounts.change(rotated.clientId(), it -> it.replaceSecret(TestAccounts.digest("new"), NOW));
    stored("young", NOW.minus(Duration.ofDays(10)));

    List<UUID> listed =
        accounts.list(Optional.empty(), Optional.of(NOW.minus(Duration.ofDays(80)))).stream()
            .map(ServiceAccount::clientId)
            .toList();
    List<UUID> inOrganization =
        accounts.list(Optional.of("org-a"), Optional.of(NOW.minus(Duration.ofDays(80)))).stream()
            .map(ServiceAccount::clientId)
            .toList();

    assertEquals(List.of(old.clientId()), listed);
    assertEquals(List.of(old.clientId()), inOrganization);
    assertTrue(
        accounts.list(Optional.of("org-z"), Optional.of(NOW.minus(Duration.ofDays(80)))).isEmpty());
  }

  @Test
  void whenAnAccountWasStoredBeforeV9ThenItsSecretDatesFromItsCreationAndStillWorks()
      throws SQLException {
    JdbcDataSource dataSource = TestDatabases.h2DataSource("v8-" + UUID.randomUUID());
    Flyway.configure()
        .dataSource(dataSource)
        .locations(Vendor.H2.migrationLocations())
        .target("8")
        .load()
        .migrate();
    UUID id = UUID.randomUUID();
    Instant created = NOW.minus(Duration.ofDays(400));
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "insert into service_account (client_id, name, organization_id, accessible_orgs,"
                    + " scopes, service_name, status, secret_digest, created_at, updated_at)"
                    + " values (?, 'legacy', 'org-a', 'org-a', 'catalog:products.view', 'catalog',"
                    + " 'ACTIVE', 'legacy-digest', ?, ?)")) {
      insert.setString(1, id.toString());
      insert.setObject(2, OffsetDateTime.ofInstant(created, ZoneOffset.UTC));
      insert.setObject(3, OffsetDateTime.ofInstant(NOW, ZoneOffset.UTC));
      insert.executeUpdate();
    }

    SecretDigest digest = SecretDigestTest.digest(1);
    Database migrated = Database.open(dataSource, new SecretPepperIdMigration(digest));
    try {
      ServiceAccount read = new ServiceAccounts(migrated).findOrDecoy(id, decoy()).account();
      assertEquals(
          new ServiceAccount.Secrets(
              new SecretDigest.Digest("legacy-digest", digest.currentPepperId()),
              created,
              null,
              null),
          read.secrets());
    } finally {
      migrated.close();
    }
  }

  @Test
  void whenTheReplacedSecretIsAlreadyTooOldThenTheOverlapDoesNotReviveIt() {
    ServiceAccount account = stored("first", NOW);
    Instant twoDaysOn = NOW.plus(Duration.ofDays(2));

    accounts.change(
        account.clientId(),
        it ->
            it.replaceSecret(
                TestAccounts.digest("second"),
                Duration.ofHours(1),
                Optional.of(Duration.ofDays(1)),
                twoDaysOn));

    ServiceAccount.Secrets secrets = accounts.find(account.clientId()).orElseThrow().secrets();
    assertEquals(TestAccounts.digest("second"), secrets.current());
    assertNull(secrets.previous());
  }

  @Test
  void whenTheOverlapWouldOutliveTheMaximumAgeThenItEndsAtThatAge() {
    ServiceAccount account = stored("first", NOW);
    Instant later = NOW.plus(Duration.ofHours(23));

    accounts.change(
        account.clientId(),
        it ->
            it.replaceSecret(
                TestAccounts.digest("second"),
                Duration.ofHours(24),
                Optional.of(Duration.ofDays(1)),
                later));

    ServiceAccount read = accounts.find(account.clientId()).orElseThrow();
    assertEquals(Optional.of(NOW.plus(Duration.ofDays(1))), read.previousSecretExpiresAt(later));
  }

  @Test
  void whenTwoChangesMeetThenTheSecondWaitsForTheFirstAndSeesItsRow() throws Exception {
    ServiceAccount account = stored("first", NOW);
    CountDownLatch firstHolds = new CountDownLatch(1);
    CountDownLatch secondEntered = new CountDownLatch(1);
    AtomicBoolean secondEnteredWhileFirstHeld = new AtomicBoolean();
    AtomicReference<String> seen = new AtomicReference<>();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<?> first =
          threads.submit(
              () ->
                  accounts.change(
                      account.clientId(),
                      it -> {
                        it.replaceSecret(
                            TestAccounts.digest("second"), Duration.ofDays(1), NOW.plusSeconds(1));
                        firstHolds.countDown();
                        // The second must not get in while this holds the row. Proving an absence
                        // takes a bounded wait; it is short of H2's lock timeout (1 s).
                        secondEnteredWhileFirstHeld.set(await(secondEntered, 300));
                      }));
      assertTrue(firstHolds.await(10, TimeUnit.SECONDS), "the first change holds the row");
      Future<?> second =
          threads.submit(
              () ->
                  accounts.change(
                      account.clientId(),
                      it -> {
                        secondEntered.countDown();
                        seen.set(it.secrets().current().value());
                        it.replaceSecret(TestAccounts.digest("third"), NOW.plusSeconds(2));
                      }));
      first.get(10, TimeUnit.SECONDS);
      second.get(10, TimeUnit.SECONDS);
    } finally {
      threads.shutdownNow();
    }

    assertFalse(secondEnteredWhileFirstHeld.get(), "the second change waited for the row");
    assertEquals("second", seen.get());
    ServiceAccount.Secrets secrets = accounts.find(account.clientId()).orElseThrow().secrets();
    assertEquals(TestAccounts.digest("third"), secrets.current());
    assertNull(secrets.previous());
  }

  private static boolean await(CountDownLatch latch, long millis) {
    try {
      return latch.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
