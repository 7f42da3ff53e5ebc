package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import dev.platform.identity.key.MutableClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Buckets in each server database the build was given (-Ppostgres, -Pmariadb): one budget for two
 * nodes, and expired rows deleted, through Bucket4j's PostgreSQL or MySQL module.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class RateLimitDatabaseIT {
  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  @Parameter DatabaseServer server;
  FreshDatabase fresh;

  @BeforeEach
  void createDatabase() throws SQLException {
    fresh = server.create("identity_rl");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    fresh.close();
  }

  DataSource dataSource() {
    return fresh.dataSource();
  }

  @Test
  void whenTwoNodesServeOneClientThenSixtySucceedInTotalNotOneHundredTwenty() {
    try (Database database = Database.open(dataSource())) {
      RateLimiter nodeA =
          RateLimiter.inDatabase(dataSource(), server.vendor(), clock, RateLimiter.SPEC_PER_MINUTE);
      RateLimiter nodeB =
          RateLimiter.inDatabase(dataSource(), server.vendor(), clock, RateLimiter.SPEC_PER_MINUTE);
      String client = UUID.randomUUID().toString();

      int admitted = 0;
      for (int i = 0; i < 60; i++) {
        for (RateLimiter node : new RateLimiter[] {nodeA, nodeB}) {
          Admission admission = node.admit(client, "10.0.0." + (i % 7));
          if (admission.admitted()) {
            node.settle(admission, 200);
            admitted++;
          }
        }
      }

      assertEquals(60, admitted);
      clock.advance(Duration.ofMinutes(1));
      assertEquals(true, nodeB.admit(client, "10.0.0.1").admitted());
      assertEquals(server.vendor(), database.vendor());
    }
  }

  /** One request refused with {@code status}; true when answered so, false when it got a 429. */
  static boolean refused(RateLimiter node, String client, String address, boolean authenticated) {
    Admission admission = node.admit(client, address);
    if (!admission.admitted()) {
      return false;
    }
    int status = authenticated ? 400 : 401;
    boolean passed = node.failed(admission, status, authenticated).isEmpty();
    node.settle(admission, status);
    return passed;
  }

  @Test
  void whenSixtyFourThreadsOnTwoNodesHammerOneBudgetThenNoMoreThanItHoldsPass() throws Exception {
    try (Database database = Database.open(dataSource())) {
      RateLimiter nodeA =
          RateLimiter.inDatabase(dataSource(), server.vendor(), clock, RateLimiter.SPEC_PER_MINUTE);
      RateLimiter nodeB =
          RateLimiter.inDatabase(dataSource(), server.vendor(), clock, RateLimiter.SPEC_PER_MINUTE);
      String client = UUID.randomUUID().toString();
      AtomicInteger turn = new AtomicInteger();

      int wrongSecrets =
          RateLimiterTest.hammer(
              3,
              () ->
                  refused(
                      turn.incrementAndGet() % 2 == 0 ? nodeA : nodeB,
                      client,
                      "203.0.113.9",
                      false));
      int ungrantedScopes =
          RateLimiterTest.hammer(
              3,
              () ->
                  refused(
                      turn.incrementAndGet() % 2 == 0 ? nodeA : nodeB, client, "10.0.0.1", true));

      assertEquals(Budget.PAIR_FAILURES.capacity(), wrongSecrets);
      assertEquals(Budget.CLIENT_FAILURES.capacity(), ungrantedScopes);
      assertEquals(server.vendor(), database.vendor());
    }
  }

  /** Rows of buckets that refilled long ago, as a flood of strangers leaves them. */
  void insertExpired(int rows) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "insert into rate_limit_bucket (id, state, expires_at) values (?, null, 0)")) {
      for (int i = 1; i <= rows; i++) {
        insert.setString(1, "ok:" + i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  /**
   * Moves every row's expiry two minutes back: Bucket4j stamps {@code expires_at} from the wall
   * clock, not from the limiter's, so this stands for two minutes passing.
   */
  void twoMinutesLater() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("update rate_limit_bucket set expires_at = expires_at - 120000");
    }
  }

  long rows() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("select count(*) from rate_limit_bucket")) {
      count.next();
      return count.getLong(1);
    }
  }

  @Test
  void whenStrangersLeftManyBucketsThenOneRunDeletesEveryExpiredRow() throws SQLException {
    try (Database database = Database.open(dataSource())) {
      RateLimiter limiter = RateLimiter.inDatabase(dataSource(), server.vendor(), clock, 60);
      for (int i = 0; i < 20; i++) {
        Admission admission = limiter.admit(UUID.randomUUID().toString(), "203.0.113.7");
        limiter.failed(admission, 401, false);
        limiter.settle(admission, 401);
      }
      insertExpired(2 * DatabaseBuckets.CLEANUP_BATCH + 500);
      long live = rows();

      twoMinutesLater();
      limiter.removeExpired();

      assertEquals(2 * DatabaseBuckets.CLEANUP_BATCH + 500 + 61, live);
      assertEquals(0, rows());
    }
  }

  @Test
  void whenMoreHaveExpiredThanOneRunMayDeleteThenTheRunStopsAtItsBoundAndTheNextGoesOn()
      throws SQLException {
    try (Database database = Database.open(dataSource())) {
      DatabaseBuckets buckets =
          new DatabaseBuckets(dataSource(), server.vendor(), new ClockTime(clock));
      insertExpired(350);
      Admission admission =
          new RateLimiter(buckets, 60).admit(UUID.randomUUID().toString(), "203.0.113.8");

      assertEquals(300, buckets.removeExpired(100, 3));
      assertEquals(50 + 4, rows());
      assertEquals(50, buckets.removeExpired(100, 3));
      assertEquals(4, rows());
      assertTrue(admission.admitted());
    }
  }
}
