package dev.platform.identity.revoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The revocations over a real (H2) database: two nodes, a restart, the clean-up. */
class RevocationsTest {
  private static final String ISSUER = "http://127.0.0.1:8080";
  private static final Duration DAY = Duration.ofHours(24);
  private static final String CLIENT = "7f3b1c2e-8a4d-4e5f-9a6b-1c2d3e4f5a6b";
  private static final String JTI = "0f8e3c6a-2b4d-4c1e-8f7a-9b0c1d2e3f4a";

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));

  @Test
  void whenOneNodeRevokesThenItKnowsAtOnceAndTheOtherAtItsNextRefresh() {
    Database database = TestDatabases.h2();
    Revocations one = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    Revocations two = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    two.refresh();

    one.revoke(JTI, CLIENT, clock.instant().plusSeconds(600));
    assertTrue(one.isRevoked(CLIENT, JTI, clock.instant()));
    assertFalse(two.isRevoked(CLIENT, JTI, clock.instant()));

    two.refresh();
    assertTrue(two.isRevoked(CLIENT, JTI, clock.instant()));
  }

  @Test
  void whenACutoffCommitsWithAnAccountChangeThenEveryNodeSeesIt() {
    Database database = TestDatabases.h2();
    Revocations one = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    Revocations two = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    AccountCutoff cutoff = one.cutoffNow(CLIENT);
    database.write(
        em -> {
          one.store(em, cutoff);
          return null;
        });
    one.remember(cutoff);
    two.refresh();

    assertTrue(two.isRevoked(CLIENT, "any", clock.instant()));
    assertFalse(two.isRevoked(CLIENT, "any", clock.instant().plusSeconds(1)));
    assertEquals(two.feed().etag(), one.feed().etag(), "every node serves the same feed");
  }

  @Test
  void whenAnEntryExpiresThenItLeavesMemoryAndTheDatabase() throws Exception {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    node.revoke(JTI, CLIENT, clock.instant().plusSeconds(60));

    clock.advance(Duration.ofSeconds(60));
    node.refresh();
    node.purge();

    assertFalse(node.isRevoked(CLIENT, JTI, clock.instant().minusSeconds(120)));
    assertEquals(0, new ObjectMapper().readTree(node.feed().body()).get("tokens").size());
    try (Connection connection = database.dataSource().getConnection();
        ResultSet rows =
            connection.createStatement().executeQuery("select count(*) from revoked_token")) {
      rows.next();
      assertEquals(0, rows.getInt(1));
    }
  }

  @Test
  void whenTheDatabaseFailsThenTheSnapshotStaysAsItWas() {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    node.revoke(JTI, CLIENT, clock.instant().plusSeconds(600));
    JdbcDataSource gone = TestDatabases.h2DataSource("never-migrated-" + System.nanoTime());
    Revocations cut = new Revocations(ISSUER, gone, DAY, clock);

    node.refresh();
    cut.refresh(); // no tables: logged, nothing thrown

    assertTrue(node.isRevoked(CLIENT, JTI, clock.instant()));
    assertFalse(cut.isRevoked(CLIENT, JTI, clock.instant()));
  }

  @Test
  void whenTheServiceRestartsOnAFileDatabaseThenNoRevocationIsLost(@TempDir Path folder)
      throws Exception {
    JdbcDataSource file = new JdbcDataSource();
    // Open until the "shutdown" below, as under the launcher's pool: closed and opened again at
    // every connection (H2's default), the file once came back without Flyway's history under CI's
    // load, and the second start re-ran V12.
    file.setURL(
        "jdbc:h2:file:"
            + folder.resolve("identity")
            + ";DB_CLOSE_ON_EXIT=FALSE;DB_CLOSE_DELAY=-1;WRITE_DELAY=0");
    file.setUser("sa");
    Database before = Database.open(file);
    Revocations first = new Revocations(ISSUER, before.dataSource(), DAY, clock);
    first.revoke(JTI, CLIENT, clock.instant().plusSeconds(600));
    AccountCutoff cutoff = first.cutoffNow("other-client");
    before.write(
        em -> {
          first.store(em, cutoff);
          return null;
        });
    before.close();
    try (Connection connection = file.getConnection()) {
      connection.createStatement().execute("shutdown");
    }
    assertTrue(Files.exists(folder.resolve("identity.mv.db")));

    Database after = Database.open(file);
    Revocations restarted = new Revocations(ISSUER, after.dataSource(), DAY, clock);
    restarted.refresh();

    assertTrue(restarted.isRevoked(CLIENT, JTI, clock.instant()));
    assertTrue(restarted.isRevoked("other-client", "x", clock.instant()));
    after.close();
  }

  @Test
  void whenAnAccountHasItsCapOfRevokedJtisThenTheNextRevocationCutsOffItsTokensInstead()
      throws Exception {
    Database database = TestDatabases.h2();
    Revocations one = new Revocations(ISSUER, database.dataSource(), DAY, clock, 2);
    Revocations two = new Revocations(ISSUER, database.dataSource(), DAY, clock, 2);
    Instant issued = clock.instant().minusSeconds(30);
    Instant exp = issued.plus(DAY);
    assertTrue(one.revoke("jti-1", CLIENT, exp, issued).cutoff().isEmpty());
    assertTrue(two.revoke("jti-2", CLIENT, exp, issued).cutoff().isEmpty(), "counts node one's");

    Revocations.Revoked third = one.revoke("jti-3", CLIENT, exp, issued);

    assertEquals(
        Optional.of(Instant.parse("2026-11-27T10:00:01Z")),
        third.cutoff().map(AccountCutoff::notBefore));
    assertEquals("2026-11-27T10:00:01Z", third.details("client").get("tokens_revoked_before"));
    one.refresh();
    two.refresh();
    for (Revocations node : List.of(one, two)) {
      assertTrue(node.isRevoked(CLIENT, "jti-3", issued));
      assertTrue(node.isRevoked(CLIENT, "its other token", clock.instant()));
      assertFalse(
          node.isRevoked(CLIENT, "a token asked for after", clock.instant().plusSeconds(1)));
      JsonNode feed = new ObjectMapper().readTree(node.feed().body());
      assertEquals(2, feed.get("tokens").size(), "the feed holds no more jtis of the account");
      assertEquals(1, feed.get("accounts").size());
    }
    assertEquals(2, count(database, "select count(*) from revoked_token"));
    assertTrue(one.revoke("jti-1", CLIENT, exp, issued).cutoff().isEmpty(), "stored already");
    assertTrue(one.revoke("jti-9", "other-client", exp, issued).cutoff().isEmpty());

    clock.advance(DAY);
    assertTrue(one.revoke("jti-4", CLIENT, exp.plus(DAY), issued.plus(DAY)).cutoff().isEmpty());
  }

  @Test
  void whenAllAccountsTogetherHaveTheirCapOfRevokedJtisThenAClientsNextRevocationIsACutoff() {
    Database database = TestDatabases.h2();
    Revocations node =
        new Revocations(
            ISSUER, database.dataSource(), DAY, clock, new RevocationStore.Caps(100, 2));
    Instant issued = clock.instant().minusSeconds(30);
    Instant exp = issued.plus(DAY);
    assertTrue(node.revoke("jti-a", "client-a", exp, issued).cutoff().isEmpty());
    assertTrue(node.revoke("jti-b", "client-b", exp, issued).cutoff().isEmpty());

    Revocations.Revoked third = node.revoke("jti-c", "client-c", exp, issued);

    assertTrue(third.cutoff().isPresent(), "client-c's first, but the third in all");
    assertTrue(node.isRevoked("client-c", "jti-c", issued));
    assertFalse(node.isRevoked("client-a", "another", issued), "others are not cut off");
    assertTrue(
        node.revokeByJti("4a0c8a1e-8f3b-4d55-9d0e-3f6a3c2b1d00", "client-c").cutoff().isEmpty(),
        "an administrator's revocation is stored as its jti, past every cap");
  }

  @Test
  void whenTheCapTurnsARevocationIntoACutoffThenItCoversItsIatAndKeepsALaterCutoff()
      throws Exception {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    Instant ahead = clock.instant().plusSeconds(3); // issued by a node whose clock is ahead

    Revocations.Revoked skewed = node.revoke("jti-1", CLIENT, ahead.plus(DAY), ahead);
    assertEquals(
        Optional.of(Instant.parse("2026-11-27T10:00:04Z")),
        skewed.cutoff().map(AccountCutoff::notBefore));
    assertTrue(node.isRevoked(CLIENT, "jti-1", ahead));

    clock.advance(Duration.ofSeconds(10));
    AccountCutoff deactivation = node.cutoffNow(CLIENT);
    database.write(
        em -> {
          node.store(em, deactivation);
          return null;
        });
    clock.advance(Duration.ofSeconds(-5)); // another node, 5 s behind, converts a revocation
    node.revoke("jti-2", CLIENT, clock.instant().plus(DAY), clock.instant());
    Revocations fresh = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    fresh.refresh();
    assertTrue(fresh.isRevoked(CLIENT, "x", deactivation.notBefore().minusSeconds(1)));
    assertEquals(
        deactivation.notBefore().getEpochSecond(),
        new ObjectMapper()
            .readTree(fresh.feed().body())
            .get("accounts")
            .get(0)
            .get("not_before")
            .asLong(),
        "the later cut-off stays");
  }

  @Test
  void whenBoundThenTheMetersSayWhatTheNodeHoldsAndStored() {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock, 1);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    node.bindTo(registry);
    node.refresh();
    Instant exp = clock.instant().plusSeconds(600);

    node.revoke("jti-1", CLIENT, exp, clock.instant());
    node.revoke("jti-2", CLIENT, exp, clock.instant()); // past the cap of 1
    AccountCutoff cutoff = node.cutoffNow("other-client");
    database.write(
        em -> {
          node.store(em, cutoff);
          return null;
        });
    node.remember(cutoff);
    clock.advance(Duration.ofSeconds(7));

    assertEquals(
        1, registry.get("identity.revocations.in.force").tag("kind", "token").gauge().value());
    assertEquals(
        2, registry.get("identity.revocations.in.force").tag("kind", "account").gauge().value());
    assertEquals(
        node.feed().body().length, registry.get("identity.revocation.feed.bytes").gauge().value());
    assertEquals(7, registry.get("identity.revocations.refresh.age.seconds").gauge().value());
    for (String kind : List.of("token", "account", "capped")) {
      assertEquals(
          1,
          registry.get("identity.revocations.stored").tag("kind", kind).functionCounter().count(),
          kind);
    }
    node.refresh();
    assertEquals(0, registry.get("identity.revocations.refresh.age.seconds").gauge().value());
  }

  private static long count(Database database, String sql) throws Exception {
    try (Connection connection = database.dataSource().getConnection();
        ResultSet rows = connection.createStatement().executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
