package dev.platform.identity.revoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Review of issue 38 (branch review38b): what the per-account cap of revoked jtis and the account
 * changes' cut-offs must not undo, over a real (H2) database.
 */
class RevocationsReviewTest {
  private static final String ISSUER = "http://127.0.0.1:8080";
  private static final Duration DAY = Duration.ofHours(24);
  private static final String CLIENT = "7f3b1c2e-8a4d-4e5f-9a6b-1c2d3e4f5a6b";
  private static final String OTHER = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00.400Z"));

  /**
   * An account change (revoke-all, deactivation, a rotation with revoke_tokens) computes its
   * cut-off before it waits for the account row's lock, then stores it with a plain UPDATE. A
   * revocation the cap turned into a later cut-off in between is lowered in the database: the token
   * the client revoked is valid again for every node that reads the database afresh (a restart, a
   * new node), while the node that made both keeps the later one in memory only.
   */
  @Test
  void whenAnAccountChangeStoresAnEarlierCutoffThanTheCapsThenTheRevokedTokenStaysRevoked() {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    AccountCutoff revokeAll = node.cutoffNow(CLIENT); // not_before 10:00:01, then waits for a lock

    clock.advance(Duration.ofSeconds(2)); // 10:00:02.400: the client revokes its newest token
    Instant issued = clock.instant().minusMillis(300); // iat 10:00:02
    Revocations.Revoked capped = node.revoke("jti-1", CLIENT, issued.plus(DAY), issued);
    assertEquals(Instant.parse("2026-11-27T10:00:03Z"), capped.cutoff().orElseThrow().notBefore());

    database.write(
        em -> {
          node.store(em, revokeAll);
          return null;
        });
    node.remember(revokeAll);
    assertTrue(node.isRevoked(CLIENT, "jti-1", issued), "this node joins them in memory");

    Revocations restarted = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    restarted.refresh();
    assertTrue(
        restarted.isRevoked(CLIENT, "jti-1", issued),
        "the token the client revoked must stay revoked once the database is read afresh");
  }

  /** The same with a revocation converted by a node whose clock is ahead (the iat is later). */
  @Test
  void whenASkewedCapCutoffIsFollowedByAnAccountChangeThenTheLaterCutoffStays() {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    Instant ahead = clock.instant().plusSeconds(3); // issued by a node 3 s ahead
    node.revoke("jti-1", CLIENT, ahead.plus(DAY), ahead); // not_before 10:00:04
    AccountCutoff deactivation = node.cutoffNow(CLIENT); // not_before 10:00:01
    database.write(
        em -> {
          node.store(em, deactivation);
          return null;
        });

    Revocations fresh = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    fresh.refresh();
    assertTrue(fresh.isRevoked(CLIENT, "jti-1", ahead));
  }

  /**
   * The jti an administrator names may be another account's than the one in the path (no token is
   * stored to check it against), so a cut-off of the named account in its place would leave that
   * token valid and end the named account's tokens instead: an administrator's revocation is always
   * stored as the jti, whatever the caps.
   */
  @Test
  void whenAnAdministratorRevokesAJtiPastTheNamedAccountsCapThenThatJtiIsStillRevoked() {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock, 1);
    node.revokeByJti("11111111-1111-4111-8111-111111111111", CLIENT); // fills CLIENT's cap
    Instant issued = clock.instant().minusSeconds(60);

    Revocations.Revoked revoked = node.revokeByJti("22222222-2222-4222-8222-222222222222", CLIENT);

    assertTrue(revoked.cutoff().isEmpty(), "an administrator's revocation is not capped");
    assertTrue(
        node.isRevoked(OTHER, "22222222-2222-4222-8222-222222222222", issued),
        "the jti the administrator revoked (a token of another account) must be revoked");
  }

  /**
   * {@code POST /oauth/revoke} has no success budget and its verifier does not consult the
   * revocations, so a client may send one revoked token again and again. Each call takes the global
   * version row's lock and commits a raise of the version although nothing is stored: every node
   * then reads every revocation row again at its next refresh (each second), and every other
   * revocation and account change waits on that one row.
   */
  @Test
  void whenARevokedJtiIsRevokedAgainThenNothingIsWrittenAndTheVersionStays() throws Exception {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock);
    RevocationStore store = new RevocationStore(database.dataSource());
    Instant issued = clock.instant();
    node.revoke("jti-1", CLIENT, issued.plus(DAY), issued);
    long version = store.version();

    for (int i = 0; i < 5; i++) {
      node.revoke("jti-1", CLIENT, issued.plus(DAY), issued);
    }

    assertEquals(version, store.version(), "a revocation that stores nothing moves no version");
  }

  /**
   * api.md: a token already revoked is "200, no body, nothing revoked". A token covered by its
   * account's cut-off (the cap's) has no stored jti, so revoking it again past the cap stores a new
   * cut-off at now, revoking the client's fresh tokens (seen live: a retried revocation of an old
   * token ended the token the client had just asked for).
   */
  @Test
  void whenATokenCoveredByTheCutoffIsRevokedAgainThenTheClientsNewerTokensStayValid() {
    Database database = TestDatabases.h2();
    Revocations node = new Revocations(ISSUER, database.dataSource(), DAY, clock, 0);
    Instant old = clock.instant().minusSeconds(60);
    node.revoke("jti-old", CLIENT, old.plus(DAY), old);
    clock.advance(Duration.ofSeconds(5));
    Instant fresh = clock.instant().minusMillis(400); // asked for after the revocation

    node.revoke("jti-old", CLIENT, old.plus(DAY), old);

    assertTrue(node.isRevoked(CLIENT, "jti-old", old));
    assertFalse(node.isRevoked(CLIENT, "jti-fresh", fresh), "nothing more is revoked");
  }
}
