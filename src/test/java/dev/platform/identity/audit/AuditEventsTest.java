package dev.platform.identity.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AuditEventsTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  final Database database = TestDatabases.h2();
  final ServiceAccounts accounts = new ServiceAccounts(database);
  final AuditEvents events = new AuditEvents(database);

  @AfterEach
  void close() {
    database.close();
  }

  /** An administrator's client_id: an actor is written only when it has the form of one. */
  static final String ADMIN = "ad000000-0000-4000-8000-000000000001";

  static AuditQuery all(int limit) {
    return new AuditQuery(
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        limit);
  }

  AuditEvent event(String name, String target, String organization, Instant time) {
    return AuditEvent.success(time, name, ADMIN, target, organization, "127.0.0.1", Map.of());
  }

  ServiceAccount account() {
    return ServiceAccount.create(
        UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("d"), NOW);
  }

  @Test
  void whenAccountAddedThenItsEventIsStoredWithItsOrganization() {
    ServiceAccount account = account();
    accounts.add(
        account,
        AuditEvent.success(
            NOW,
            "account.create",
            ADMIN,
            account.clientId().toString(),
            account.profile().organizationId(),
            "10.0.0.1",
            Map.of("k", "v")));

    AuditEvent stored = events.list(all(10)).events().get(0);
    assertEquals("account.create", stored.event());
    assertEquals(Optional.of(account.clientId().toString()), stored.target());
    assertEquals(Optional.of(account.profile().organizationId()), stored.organization());
    assertEquals(Map.of("k", "v"), stored.details());
    assertEquals(NOW, stored.time());
  }

  @Test
  void whenChangeFailsThenNoEventIsStored() {
    ServiceAccount account = account();
    accounts.add(account);
    assertThrows(
        IllegalStateException.class,
        () ->
            accounts.change(
                account.clientId(),
                it -> {
                  throw new IllegalStateException("refused");
                },
                it -> event("account.deactivate", "x", null, NOW)));
    assertTrue(events.list(all(10)).events().isEmpty());
  }

  @Test
  void whenChangedThenTheEventIsStoredWithTheChange() {
    ServiceAccount account = account();
    accounts.add(account);
    accounts.change(
        account.clientId(),
        it -> it.deactivate(NOW.plusSeconds(1)),
        it -> event("account.deactivate", it.clientId().toString(), null, NOW.plusSeconds(1)));
    assertEquals(
        List.of("account.deactivate"),
        events.list(all(10)).events().stream().map(AuditEvent::event).toList());
  }

  void store(AuditEvent event) {
    database.write(
        em -> {
          event.storeIn(em);
          return null;
        });
  }

  @Test
  void whenPagedThenNewestFirstAndStableWhileNewEventsArrive() {
    for (int i = 0; i < 5; i++) {
      store(event("e" + i, "t", null, NOW.plusSeconds(i / 2))); // two share each second
    }
    AuditEvents.Page first = events.list(all(2));
    assertEquals(List.of("e4", "e3"), first.events().stream().map(AuditEvent::event).toList());
    store(event("newer", "t", null, NOW.plusSeconds(60)));
    AuditQuery second =
        new AuditQuery(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            first.next(),
            2);
    AuditEvents.Page page = events.list(second);
    assertEquals(List.of("e2", "e1"), page.events().stream().map(AuditEvent::event).toList());
    AuditEvents.Page last =
        events.list(
            new AuditQuery(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                page.next(),
                2));
    assertEquals(List.of("e0"), last.events().stream().map(AuditEvent::event).toList());
    assertTrue(last.next().isEmpty());
  }

  @Test
  void whenFilteredThenOnlyMatchingEvents() {
    store(event("account.create", "a", "org-1", NOW));
    store(event("account.create", "b", "org-2", NOW.plusSeconds(1)));
    store(event("key.revoke", "kid", null, NOW.plusSeconds(2)));

    AuditQuery query =
        new AuditQuery(
            Optional.of("account.create"),
            Optional.of(ADMIN),
            Optional.empty(),
            Optional.of(NOW),
            Optional.of(NOW.plusSeconds(2)),
            Optional.of(List.of("org-1")),
            Optional.empty(),
            10);
    assertEquals(
        List.of(Optional.of("a")),
        events.list(query).events().stream().map(AuditEvent::target).toList());
    AuditQuery none =
        new AuditQuery(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of(List.of()),
            Optional.empty(),
            10);
    assertTrue(events.list(none).events().isEmpty());
  }

  @Test
  void whenCursorTextChangedThenItIsRefused() {
    AuditCursor cursor = new AuditCursor(NOW, 42);
    assertEquals(Optional.of(cursor), AuditCursor.parse(cursor.text()));
    assertTrue(AuditCursor.parse("nonsense!").isEmpty());
    assertTrue(AuditCursor.parse(cursor.text() + "A").isEmpty());
    assertTrue(AuditCursor.parse("").isEmpty());
  }
}
