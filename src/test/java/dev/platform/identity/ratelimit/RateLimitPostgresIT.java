package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.db.Database;
import dev.platform.identity.key.MutableClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.postgresql.ds.PGSimpleDataSource;

/** Two nodes' limiters on one PostgreSQL database share one budget (-Ppostgres). */
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class RateLimitPostgresIT {
  final String adminUrl = System.getProperty("identity.postgres.url");
  final String name = "identity_rl_" + UUID.randomUUID().toString().replace("-", "");
  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));

  @BeforeEach
  void createDatabase() throws SQLException {
    admin("create database " + name);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    admin("drop database if exists " + name + " with (force)");
  }

  void admin(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(adminUrl)) {
      connection.createStatement().execute(sql);
    }
  }

  PGSimpleDataSource dataSource() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(adminUrl.replaceFirst("/[^/?]*(\\?|$)", "/" + name + "$1"));
    return dataSource;
  }

  @Test
  void whenTwoNodesServeOneClientThenSixtySucceedInTotalNotOneHundredTwenty() {
    try (Database database = Database.open(dataSource())) {
      RateLimiter nodeA = RateLimiter.inDatabase(dataSource(), clock, RateLimiter.SPEC_PER_MINUTE);
      RateLimiter nodeB = RateLimiter.inDatabase(dataSource(), clock, RateLimiter.SPEC_PER_MINUTE);
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
      assertEquals(true, database.isPostgreSql());
    }
  }
}
