package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.key.MutableClock;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** Issue 35: the bulkhead refuses at once when full and always gets its permits back. */
class DatabaseGuardTest {
  static final Instant NOW = Instant.parse("2026-11-27T01:00:00Z");

  final MutableClock clock = new MutableClock(NOW);
  final JdbcDataSource h2 = TestDatabases.h2DataSource("guard-" + UUID.randomUUID());

  DatabaseGuard guard(int concurrency) {
    return new DatabaseGuard(concurrency, Duration.ofSeconds(3), clock);
  }

  @Test
  void whenEveryPermitIsHeldThenTheNextConnectionIsRefusedWithinTheShortWaitAndCounted()
      throws Exception {
    DatabaseGuard guard = guard(2);
    DataSource guarded = guard.guard(h2);
    try (Connection first = guarded.getConnection();
        Connection second = guarded.getConnection()) {
      long start = System.nanoTime();
      SQLException refused = assertThrows(SQLException.class, guarded::getConnection);
      long tookMillis = (System.nanoTime() - start) / 1_000_000;

      assertTrue(refused instanceof DatabaseBusyException, refused.toString());
      assertEquals(Optional.of(DatabaseTrouble.BUSY), DatabaseTrouble.of(wrapped(refused)));
      assertTrue(tookMillis < 100, "refused after " + tookMillis + " ms");
      assertEquals(1, guard.refusals());
      assertEquals(2, guard.inUse());
      assertFalse(first.isClosed() || second.isClosed());
    }
    assertEquals(0, guard.inUse());
    try (Connection again = guarded.getConnection()) {
      assertEquals(1, guard.inUse());
    }
  }

  @Test
  void whenWorkThrowsThenItsPermitIsReturned() throws Exception {
    DatabaseGuard guard = guard(1);
    DataSource guarded = guard.guard(h2);
    for (int i = 0; i < 3; i++) {
      assertThrows(
          SQLException.class,
          () -> {
            try (Connection connection = guarded.getConnection();
                Statement statement = connection.createStatement()) {
              statement.execute("select * from no_such_table");
            }
          });
    }
    assertEquals(0, guard.inUse());
    assertEquals(0, guard.refusals());
  }

  @Test
  void whenThePoolCannotGiveAConnectionThenThePermitIsReturnedAndTheFailureCounted()
      throws Exception {
    JdbcDataSource unreachable = new JdbcDataSource();
    unreachable.setURL("jdbc:h2:mem:x;IFEXISTS=TRUE;DB_CLOSE_DELAY=-1");
    DatabaseGuard guard = guard(1);
    DataSource guarded = guard.guard(unreachable);

    assertThrows(SQLException.class, guarded::getConnection);
    assertThrows(SQLException.class, guarded::getConnection);

    assertEquals(0, guard.inUse());
    assertEquals(0, guard.refusals(), "a failed connection is not a refusal");
  }

  @Test
  void whenAConnectionIsClosedTwiceThenOnlyOnePermitIsReturned() throws Exception {
    DatabaseGuard guard = guard(2);
    DataSource guarded = guard.guard(h2);
    Connection held = guarded.getConnection();
    Connection twice = guarded.getConnection();
    twice.close();
    twice.close();
    assertEquals(1, guard.inUse());
    held.close();
    assertEquals(0, guard.inUse());
  }

  @Test
  void whenAStatementIsMadeThenItCarriesTheDeadline() throws Exception {
    DataSource guarded = guard(1).guard(h2);
    try (Connection connection = guarded.getConnection();
        Statement plain = connection.createStatement();
        PreparedStatement prepared = connection.prepareStatement("select 1")) {
      assertEquals(3, plain.getQueryTimeout());
      assertEquals(3, prepared.getQueryTimeout());
      assertTrue(prepared.getConnection() == connection, "the statement's connection is guarded");
    }
  }

  @Test
  void whenAStatementHasTheTimeoutAlreadyThenItIsNotSetAgain() throws Exception {
    List<Integer> set = new ArrayList<>();
    GuardedDataSource.timeout(statement(3, set), 3);
    assertEquals(List.of(), set, "H2 would run SET QUERY_TIMEOUT and empty its query cache");
    GuardedDataSource.timeout(statement(0, set), 3);
    GuardedDataSource.timeout(statement(3, set), 0);
    assertEquals(List.of(3, 0), set);
  }

  @Test
  void whenEclipseLinkSetsTheDeadlineAgainThenTheStatementKeepsIt() throws Exception {
    DataSource guarded = guard(1).guard(h2);
    try (Connection connection = guarded.getConnection();
        PreparedStatement prepared = connection.prepareStatement("select 1")) {
      prepared.setQueryTimeout(3);
      assertEquals(3, prepared.getQueryTimeout());
      prepared.setQueryTimeout(5);
      assertEquals(5, prepared.getQueryTimeout(), "another timeout is set");
    }
  }

  /** A statement whose timeout is {@code seconds}, recording what it is set to. */
  private static Statement statement(int seconds, List<Integer> set) {
    return (Statement)
        Proxy.newProxyInstance(
            Statement.class.getClassLoader(),
            new Class<?>[] {Statement.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getQueryTimeout" -> seconds;
                  case "setQueryTimeout" -> {
                    set.add((Integer) args[0]);
                    yield null;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  @Test
  void whenStatementsTimeOutThenTheyAreCountedAndLoggedOnceAMinute() throws Exception {
    DatabaseGuard guard = guard(1);
    try (LogCapture log = LogCapture.of(DatabaseGuard.class.getName())) {
      for (int i = 0; i < 5; i++) {
        guard.failed(new SQLTimeoutException("canceling statement due to statement timeout"));
      }
      assertEquals(5, guard.timeouts());
      assertEquals(NOW, guard.lastTrouble());
      assertEquals(1, log.messages().size(), log.messages().toString());

      clock.advance(Duration.ofSeconds(61));
      guard.failed(new SQLException("canceling statement", "57014"));
      assertEquals(2, log.messages().size(), log.messages().toString());
      assertTrue(log.messages().get(1).contains("5 time(s)"), log.messages().get(1));
    }
  }

  @Test
  void whenAStatementFailsForItsOwnSakeThenNothingIsCounted() {
    DatabaseGuard guard = guard(1);
    guard.failed(new SQLException("duplicate key", "23505"));
    assertEquals(0, guard.timeouts());
    assertEquals(Instant.EPOCH, guard.lastTrouble());
  }

  @Test
  void whenFailuresAreClassifiedThenTimeoutsAndLockTimeoutsAreTimeoutsAndOthersNothing() {
    assertEquals(
        Optional.of(DatabaseTrouble.TIMEOUT),
        DatabaseTrouble.of(wrapped(new SQLException("lock timeout", "55P03"))));
    assertEquals(
        Optional.of(DatabaseTrouble.TIMEOUT),
        DatabaseTrouble.of(wrapped(new SQLException("Statement was canceled", "HY008"))));
    assertEquals(
        Optional.of(DatabaseTrouble.BUSY),
        DatabaseTrouble.of(
            new SQLException(
                "Cannot get a connection, pool error Timeout waiting for idle object")));
    assertEquals(
        Optional.empty(), DatabaseTrouble.of(wrapped(new SQLException("duplicate key", "23505"))));
    assertEquals(Optional.empty(), DatabaseTrouble.of(new IllegalStateException("no cause")));
  }

  private static RuntimeException wrapped(SQLException cause) {
    return new IllegalStateException("the work failed", cause);
  }
}
