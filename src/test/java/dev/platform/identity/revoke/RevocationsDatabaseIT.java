package dev.platform.identity.revoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import dev.platform.identity.key.MutableClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 38 on each database server the build was given ({@code -Ppostgres}, {@code -Pmariadb}):
 * migration 20, two nodes, a restart, the purge.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class RevocationsDatabaseIT {
  static final String ISSUER = "http://127.0.0.1:8080";
  static final Duration DAY = Duration.ofHours(24);
  static final String CLIENT = "7f3b1c2e-8a4d-4e5f-9a6b-1c2d3e4f5a6b";
  static final String JTI = "0f8e3c6a-2b4d-4c1e-8f7a-9b0c1d2e3f4a";

  final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00.250Z"));
  @Parameter DatabaseServer server;
  FreshDatabase fresh;

  @BeforeEach
  void createDatabase() throws SQLException {
    fresh = server.create("identity_revoke");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    fresh.close();
  }

  @Test
  void whenNodesRevokeOnPostgresThenEveryNodeAndARestartSeeItAndThePurgeEndsIt() {
    try (Database nodeA = Database.open(fresh.dataSource());
        Database nodeB = Database.open(fresh.dataSource())) {
      Revocations a = new Revocations(ISSUER, nodeA.dataSource(), DAY, clock);
      Revocations b = new Revocations(ISSUER, nodeB.dataSource(), DAY, clock);
      a.revoke(JTI, CLIENT, clock.instant().plusSeconds(60));
      a.revoke(JTI, CLIENT, clock.instant().plusSeconds(60)); // twice: no error
      AccountCutoff cutoff = b.cutoffNow(CLIENT);
      nodeB.write(
          em -> {
            b.store(em, cutoff);
            return null;
          });
      nodeB.write(
          em -> {
            b.store(em, b.cutoffNow(CLIENT)); // replaces the account's earlier one
            return null;
          });
      a.refresh();
      b.refresh();
      assertTrue(b.isRevoked(CLIENT, JTI, clock.instant().plusSeconds(5)));
      assertTrue(a.isRevoked(CLIENT, "other", clock.instant()));
      assertEquals(a.feed().etag(), b.feed().etag());

      Revocations restarted = new Revocations(ISSUER, nodeA.dataSource(), DAY, clock);
      restarted.refresh();
      assertTrue(restarted.isRevoked(CLIENT, JTI, clock.instant().plusSeconds(5)));

      clock.advance(DAY.plusSeconds(2));
      restarted.purge();
      Revocations later = new Revocations(ISSUER, nodeB.dataSource(), DAY, clock);
      later.refresh();
      assertFalse(later.isRevoked(CLIENT, JTI, clock.instant().minus(DAY)));
    }
  }
}
