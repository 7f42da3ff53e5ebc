package dev.platform.identity.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 20 §3 on each database server the build was given ({@code -Ppostgres}, {@code -Pmariadb}):
 * migration 15, the writes, the reads, the job.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class AuditDatabaseIT {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123456Z");

  @Parameter DatabaseServer server;
  FreshDatabase fresh;

  @BeforeEach
  void createDatabase() throws SQLException {
    fresh = server.create("identity_audit");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    fresh.close();
  }

  static AuditQuery page(Optional<AuditCursor> after, Optional<List<String>> organizations) {
    return new AuditQuery(
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(NOW.minusSeconds(3600)),
        Optional.of(NOW.plusSeconds(3600)),
        organizations,
        after,
        2);
  }

  @Test
  void whenChangesAreAuditedThenTheTrailIsPagedFilteredAndExpiredOnPostgres() {
    try (Database nodeA = Database.open(fresh.dataSource());
        Database nodeB = Database.open(fresh.dataSource())) {
      ServiceAccounts accounts = new ServiceAccounts(nodeA);
      AuditEvents events = new AuditEvents(nodeB);
      for (int i = 0; i < 3; i++) {
        ServiceAccount account =
            ServiceAccount.create(
                UUID.randomUUID(), TestAccounts.catalogReader(), TestAccounts.digest("d"), NOW);
        accounts.add(
            account,
            AuditEvent.success(
                NOW,
                "account.create",
                "ad000000-0000-4000-8000-000000000001",
                account.clientId().toString(),
                account.profile().organizationId(),
                "10.0.0.1",
                Map.of("n", Integer.toString(i))));
      }
      AuditEvents.Page first = events.list(page(Optional.empty(), Optional.empty()));
      assertEquals(2, first.events().size());
      assertEquals("2", first.events().get(0).details().get("n"), "newest first");
      assertEquals(NOW, first.events().get(0).time());
      AuditEvents.Page second = events.list(page(first.next(), Optional.empty()));
      assertEquals(List.of("0"), second.events().stream().map(e -> e.details().get("n")).toList());
      assertTrue(second.next().isEmpty());
      assertEquals(
          3,
          events.list(page(Optional.empty(), Optional.of(List.of("org-a")))).events().size()
              + events.list(page(first.next(), Optional.of(List.of("org-a")))).events().size());
      assertTrue(
          events.list(page(Optional.empty(), Optional.of(List.of("org-z")))).events().isEmpty());

      AuditEvent exhausted =
          AuditEvent.of(
              NOW, "ratelimit.exhausted", null, "addr", "exhausted", "10.0.0.2", Map.of());
      assertTrue(events.recordOnce("addr:10.0.0.2", NOW, exhausted));
      assertFalse(new AuditEvents(nodeA).recordOnce("addr:10.0.0.2", NOW, exhausted));

      Clock later = Clock.fixed(NOW.plus(Duration.ofDays(2)), ZoneOffset.UTC);
      assertEquals(4, new AuditRetention(nodeA, Duration.ofDays(1), later, 3).runIfDue());
      assertEquals(0, new AuditRetention(nodeB, Duration.ofDays(1), later, 3).runIfDue());
    }
  }
}
