package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 19 §3: how many accounts are on which pepper, as the administration API tells it. */
class SecretPeppersTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  final Database database = TestDatabases.h2();
  final ServiceAccounts accounts = new ServiceAccounts(database);
  final SecretDigest old = SecretDigestTest.digest(1);
  final SecretDigest strange = SecretDigestTest.digest(9);
  final SecretDigest digest =
      new SecretDigest(SecretDigestTest.pepper(2), List.of(SecretDigestTest.pepper(1)));
  final SecretPeppers peppers = new SecretPeppers(accounts, digest);

  @AfterEach
  void close() {
    database.close();
  }

  UUID account(SecretDigest.Digest stored) {
    ServiceAccount account =
        ServiceAccount.create(UUID.randomUUID(), TestAccounts.catalogReader(), stored, NOW);
    accounts.add(account);
    return account.clientId();
  }

  void rotate(UUID id, SecretDigest.Digest next, Duration overlap) {
    accounts.change(id, it -> it.replaceSecret(next, overlap, NOW));
  }

  @Test
  void whenAccountsAreOnSeveralPeppersThenTheCensusCountsEachOnceInTheTotals() {
    account(digest.of("on-the-current-pepper"));
    account(old.of("on-the-previous-pepper"));
    UUID spanning = account(old.of("old"));
    rotate(spanning, digest.of("new"), Duration.ofDays(1));
    UUID ended = account(old.of("old"));
    rotate(ended, digest.of("new"), Duration.ofHours(1));
    UUID bothOld = account(old.of("older"));
    rotate(bothOld, old.of("old"), Duration.ofDays(1));
    account(strange.of("on-an-unknown-pepper"));
    UUID deleted = account(old.of("gone"));
    accounts.change(deleted, it -> it.delete(NOW));

    SecretPeppers.Census census = peppers.census(NOW.plus(Duration.ofHours(2)));

    assertEquals(digest.currentPepperId(), census.currentPepperId());
    // The previous pepper: one plain, one spanning the rotation in its overlap, one with both
    // digests under it; not the one whose overlap has ended, nor the deleted one.
    assertEquals(3, census.onPreviousPeppers());
    assertEquals(1, census.onUnknownPeppers());
    Map<String, Long> expected = new TreeMap<>();
    expected.put(digest.currentPepperId(), 3L);
    expected.put(old.currentPepperId(), 3L);
    expected.put(strange.currentPepperId(), 1L);
    assertEquals(expected, census.byPepper());
  }

  @Test
  void whenNoAccountExistsThenTheCensusIsEmpty() {
    SecretPeppers.Census census = peppers.census(NOW);

    assertEquals(0, census.onPreviousPeppers());
    assertEquals(0, census.onUnknownPeppers());
    assertTrue(census.byPepper().isEmpty());
  }

  @Test
  void whenAccountsAreOnAPepperThisNodeDoesNotHaveThenOneWarningNamesItsIdAndCount() {
    account(strange.of("one"));
    account(strange.of("two"));
    account(old.of("fine"));

    try (LogCapture log = LogCapture.of(SecretPeppers.class.getName())) {
      peppers.warnOfUnknownPeppers(NOW);

      assertEquals(
          List.of(
              "2 accounts have secrets digested under pepper id "
                  + strange.currentPepperId()
                  + ", which is neither identity/secretPepper nor in"
                  + " identity/previousSecretPeppers: they cannot authenticate until their"
                  + " secrets are rotated"),
          log.messages());
    }
  }

  @Test
  void whenEveryAccountIsOnAKnownPepperThenNothingIsSaid() {
    account(old.of("fine"));

    try (LogCapture log = LogCapture.of(SecretPeppers.class.getName())) {
      peppers.warnOfUnknownPeppers(NOW);

      assertFalse(log.messages().stream().anyMatch(line -> line.contains("pepper id")));
    }
  }
}
