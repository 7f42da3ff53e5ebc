package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The single use of a client assertion's jti and of a DPoP proof's, across two nodes of one
 * database, on each server database the build was given: the unique key refuses the replay on every
 * node, an expired jti is taken again, and the purge deletes in batches (MariaDB's DELETE ...
 * LIMIT, the others' keyed subquery).
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class UsedJtisDatabaseIT {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123456Z");

  @Parameter DatabaseServer server;
  FreshDatabase database;

  @BeforeEach
  void migrate() throws SQLException {
    database = server.create("identity_jti");
    Database.open(database.dataSource()).close();
  }

  @AfterEach
  void drop() throws SQLException {
    database.close();
  }

  @Test
  void whenTwoNodesSeeOneJtiThenOnlyTheFirstTakesItUntilItExpires() {
    UsedJtis nodeA = new UsedJtis(database.dataSource());
    UsedJtis nodeB = new UsedJtis(database.dataSource());
    UUID client = UUID.randomUUID();
    Instant exp = NOW.plusSeconds(60);

    assertTrue(nodeA.claim(client, "jti-1", exp, NOW));
    assertFalse(nodeB.claim(client, "jti-1", exp, NOW), "a replay on the other node");
    assertTrue(
        nodeA.dpopProofs().claim(client, "jti-1", exp, NOW), "the proofs are a table of their own");
    assertFalse(nodeB.dpopProofs().claim(client, "jti-1", exp, NOW), "a proof replay");
    assertTrue(nodeB.claim(UUID.randomUUID(), "jti-1", exp, NOW), "another client's own jti");
    assertTrue(nodeB.claim(client, "JTI-1", exp, NOW), "another jti, in other case");
    assertTrue(
        nodeB.claim(client, "jti-1", NOW.plusSeconds(300), exp.plusMillis(1)),
        "the expired jti is taken again");
  }

  @Test
  void whenMoreThanABatchHaveExpiredThenThePurgeDeletesThemAllAndKeepsTheLiveOnes()
      throws SQLException {
    UsedJtis jtis = new UsedJtis(database.dataSource());
    UUID client = UUID.randomUUID();
    int expired = 2 * UsedJtis.BATCH + 17;
    try (Connection connection = database.connect();
        PreparedStatement insert =
            connection.prepareStatement(
                "insert into client_assertion_jti (client_id, jti_digest, expires_at)"
                    + " values (?, ?, ?)")) {
      for (int i = 0; i < expired; i++) {
        insert.setString(1, client.toString());
        insert.setString(2, UsedJtis.digest("old-" + i));
        insert.setObject(3, NOW.minus(Duration.ofMinutes(1)).atOffset(ZoneOffset.UTC));
        insert.addBatch();
      }
      insert.executeBatch();
    }
    assertTrue(jtis.claim(client, "live", NOW.plusSeconds(60), NOW));

    assertEquals(expired, jtis.purge(NOW));
    assertFalse(jtis.claim(client, "live", NOW.plusSeconds(60), NOW), "the live one stays");
  }
}
