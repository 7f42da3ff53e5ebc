package dev.platform.identity.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Issue 20: the accounts and secrets /metrics shows, counted at a fixed time. */
class ServiceMetricsTest {
  static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  static final Duration MAX_AGE = Duration.ofDays(90);

  @Test
  void whenCountedThenAccountsByStatusAndSecretsDueOrExpiredAreGauges() {
    try (Database database = TestDatabases.h2()) {
      ServiceAccounts accounts = new ServiceAccounts(database);
      UUID deactivated = add(accounts, NOW.minus(Duration.ofDays(1)));
      add(accounts, NOW.minus(Duration.ofDays(10))); // fresh
      add(accounts, NOW.minus(Duration.ofDays(80))); // due: within 14 days of 90
      add(accounts, NOW.minus(Duration.ofDays(91))); // expired
      UUID deleted = add(accounts, NOW.minus(Duration.ofDays(200))); // deleted: not counted
      accounts.change(deactivated, account -> account.deactivate(NOW));
      accounts.change(deleted, account -> account.delete(NOW));
      ServiceMetrics metrics = new ServiceMetrics(accounts, Optional.of(MAX_AGE), CLOCK);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      metrics.bindAccountsTo(registry);

      metrics.count();

      assertEquals(3, gauge(registry, "identity.accounts", "status", "active"));
      assertEquals(1, gauge(registry, "identity.accounts", "status", "deactivated"));
      assertEquals(1, gauge(registry, "identity.accounts", "status", "deleted"));
      assertEquals(1, gauge(registry, "identity.account.secrets", "state", "due"));
      assertEquals(1, gauge(registry, "identity.account.secrets", "state", "expired"));
    }
  }

  @Test
  void whenNoMaximumAgeThenNoSecretGauges() {
    try (Database database = TestDatabases.h2()) {
      ServiceMetrics metrics =
          new ServiceMetrics(new ServiceAccounts(database), Optional.empty(), CLOCK);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      metrics.bindAccountsTo(registry);

      metrics.count();

      assertTrue(registry.find("identity.account.secrets").gauges().isEmpty());
      assertEquals(0, gauge(registry, "identity.accounts", "status", "active"));
    }
  }

  static UUID add(ServiceAccounts accounts, Instant secretCreatedAt) {
    UUID id = UUID.randomUUID();
    accounts.add(
        ServiceAccount.create(
            id,
            TestAccounts.catalogReader(),
            TestAccounts.digest("secret-" + id),
            secretCreatedAt));
    return id;
  }

  static double gauge(SimpleMeterRegistry registry, String name, String tag, String value) {
    return registry.get(name).tag(tag, value).gauge().value();
  }
}
