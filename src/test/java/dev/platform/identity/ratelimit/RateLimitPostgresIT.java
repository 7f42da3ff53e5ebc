package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.FreshPostgres;
import dev.platform.identity.key.MutableClock;
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
  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  FreshPostgres fresh;

  @BeforeEach
  void createDatabase() throws SQLException {
    fresh = FreshPostgres.create("identity_rl");
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    fresh.close();
  }

  PGSimpleDataSource dataSource() {
    return fresh.dataSource();
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
