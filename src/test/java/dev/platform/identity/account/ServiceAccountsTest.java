package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServiceAccountsTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  final Database database = TestDatabases.h2();
  final ServiceAccounts accounts = new ServiceAccounts(database);

  @AfterEach
  void close() {
    database.close();
  }

  ServiceAccount stored() {
    ServiceAccount account =
        ServiceAccount.create(
            UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("digest"), NOW);
    accounts.add(account);
    return account;
  }

  @Test
  void whenStoredThenReadBackWithEveryField() {
    ServiceAccount account = stored();

    ServiceAccount read = accounts.find(account.clientId()).orElseThrow();

    assertEquals("catalog reader", read.name());
    assertEquals("org-a", read.organizationId());
    assertEquals(List.of("org-a", "org-b"), read.accessibleOrgs());
    assertEquals(List.of("catalog:products.view"), read.scopes());
    assertEquals("catalog", read.serviceName());
    assertEquals(AccountStatus.ACTIVE, read.status());
    assertEquals(TestAccounts.digest("digest"), read.secretDigest());
    assertEquals(NOW, read.createdAt());
    assertEquals(NOW, read.updatedAt());
  }

  @Test
  void whenTheAccountExistsThenTheLookupFindsItWithEveryField() {
    ServiceAccount account = stored();
    ServiceAccount decoy =
        ServiceAccount.create(
            UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("decoy"), NOW);

    ServiceAccounts.Lookup lookup = accounts.findOrDecoy(account.clientId(), decoy);

    assertTrue(lookup.found());
    ServiceAccount read = lookup.account();
    assertEquals(account.clientId(), read.clientId());
    assertEquals(account.profile(), read.profile());
    assertEquals(AccountStatus.ACTIVE, read.status());
    assertEquals(TestAccounts.digest("digest"), read.secretDigest());
    assertEquals(NOW, read.createdAt());
    assertEquals(NOW, read.updatedAt());
  }

  @Test
  void whenNoAccountThenTheLookupReturnsTheDecoyAndNeverStoresIt() {
    ServiceAccount decoy =
        ServiceAccount.create(
            UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("decoy"), NOW);

    ServiceAccounts.Lookup lookup = accounts.findOrDecoy(UUID.randomUUID(), decoy);

    assertFalse(lookup.found());
    assertEquals(decoy.clientId(), lookup.account().clientId());
    assertEquals(decoy.profile(), lookup.account().profile());
    assertEquals(TestAccounts.digest("decoy"), lookup.account().secretDigest());
    assertEquals(NOW, lookup.account().createdAt());
    assertTrue(accounts.isEmpty());
    assertTrue(accounts.find(decoy.clientId()).isEmpty());
  }

  @Test
  void whenUnknownThenEmpty() {
    assertTrue(accounts.find(UUID.randomUUID()).isEmpty());
  }

  @Test
  void whenChangedThroughOneFactoryThenTheOtherSeesItAtOnce() {
    String name = "shared-" + UUID.randomUUID();
    try (Database nodeA = Database.open(TestDatabases.h2DataSource(name));
        Database nodeB = Database.open(TestDatabases.h2DataSource(name))) {
      ServiceAccounts a = new ServiceAccounts(nodeA);
      ServiceAccounts b = new ServiceAccounts(nodeB);
      ServiceAccount account =
          ServiceAccount.create(
              UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("digest"), NOW);
      a.add(account);
      assertTrue(b.find(account.clientId()).orElseThrow().isActive());

      a.change(account.clientId(), it -> it.deactivate(NOW.plusSeconds(1)));

      assertEquals(AccountStatus.DEACTIVATED, b.find(account.clientId()).orElseThrow().status());
      a.change(
          account.clientId(),
          it -> it.replaceSecret(TestAccounts.digest("new-digest"), NOW.plusSeconds(2)));
      assertEquals(
          TestAccounts.digest("new-digest"),
          b.find(account.clientId()).orElseThrow().secretDigest());
    }
  }

  @Test
  void whenDeactivatedAndReactivatedThenActiveAgain() {
    ServiceAccount account = stored();

    accounts.change(account.clientId(), it -> it.deactivate(NOW.plusSeconds(60)));
    assertEquals(
        AccountStatus.DEACTIVATED, accounts.find(account.clientId()).orElseThrow().status());
    accounts.change(account.clientId(), it -> it.reactivate(NOW.plusSeconds(120)));

    ServiceAccount read = accounts.find(account.clientId()).orElseThrow();
    assertTrue(read.isActive());
    assertEquals(NOW.plusSeconds(120), read.updatedAt());
  }

  @Test
  void whenDeletedThenATombstoneStaysAndNothingRevivesIt() {
    ServiceAccount account = stored();

    accounts.change(account.clientId(), it -> it.delete(NOW));

    ServiceAccount tombstone = accounts.find(account.clientId()).orElseThrow();
    assertEquals(AccountStatus.DELETED, tombstone.status());
    assertEquals(TestAccounts.digest("digest"), tombstone.secretDigest());
    assertThrows(
        IllegalAccountStateException.class,
        () -> accounts.change(account.clientId(), it -> it.reactivate(NOW)));
    assertThrows(
        IllegalAccountStateException.class,
        () ->
            accounts.change(
                account.clientId(), it -> it.replaceSecret(TestAccounts.digest("x"), NOW)));
    assertTrue(accounts.list(Optional.empty()).isEmpty());
  }

  @Test
  void whenListedByOrganizationThenOnlyThatOrganization() {
    ServiceAccount inA = stored();
    ServiceAccount inC =
        ServiceAccount.create(
            UUID.randomUUID(),
            new AccountProfile("other", "org-c", List.of(), List.of("kitchen:*"), "kitchen"),
            TestAccounts.digest("digest"),
            NOW.plusSeconds(1));
    accounts.add(inC);

    assertEquals(
        List.of(inA.clientId()),
        accounts.list(Optional.of("org-a")).stream().map(ServiceAccount::clientId).toList());
    assertEquals(
        List.of(inA.clientId(), inC.clientId()),
        accounts.list(Optional.empty()).stream().map(ServiceAccount::clientId).toList());
  }

  @Test
  void whenAChangeFailsThenNothingIsWritten() {
    ServiceAccount account = stored();

    assertThrows(
        IllegalStateException.class,
        () ->
            accounts.change(
                account.clientId(),
                it -> {
                  it.deactivate(NOW);
                  throw new IllegalStateException("boom");
                }));

    assertTrue(accounts.find(account.clientId()).orElseThrow().isActive());
  }
}
