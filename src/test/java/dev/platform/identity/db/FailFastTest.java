package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a read that passes its deadline is answered as a timeout once, never retried (FailFast
 * keeps one retry, for a connection the database has closed). Public, as H2 calls {@link #pause}
 * through reflection.
 */
public class FailFastTest {
  /** About 100 s of rows, each a millisecond's pause: cancelled between rows at the deadline. */
  static final String SLOW_READ =
      "select count(*) from system_range(1, 100000) where failfast_pause() = 0";

  /** Called by H2 for each row of {@link #SLOW_READ}. */
  public static int pause() throws InterruptedException {
    Thread.sleep(1);
    return 1;
  }

  private static String chain(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      text.append(t).append(" <- ");
    }
    return text.toString();
  }

  @Test
  void whenAReadTimesOutThenItRunsOnceAndIsATimeout() throws Exception {
    String name = "failfast-" + UUID.randomUUID();
    JdbcDataSource h2 = TestDatabases.h2DataSource(name);
    CountingDataSource counting = new CountingDataSource(h2);
    DatabaseGuard guard = new DatabaseGuard(4, Duration.ofSeconds(1), Clock.systemUTC());
    try (Database database = Database.open(counting.dataSource(), guard);
        Connection holder = h2.getConnection();
        Statement setup = holder.createStatement()) {
      setup.execute(
          "create alias failfast_pause for \"" + FailFastTest.class.getName() + ".pause\"");
      counting.reset();

      long start = System.nanoTime();
      RuntimeException failure =
          assertThrows(
              RuntimeException.class,
              () -> database.read(em -> em.createNativeQuery(SLOW_READ).getResultList()));
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertEquals(
          Optional.of(DatabaseTrouble.TIMEOUT), DatabaseTrouble.of(failure), chain(failure) + took);
      assertEquals(
          1,
          counting.statements().stream().filter(SLOW_READ::equals).count(),
          counting.statements().toString());
      assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "answered after " + took);
      assertEquals(1, guard.timeouts());
      assertEquals(0, guard.inUse());
    }
  }
}
