package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A console logout on one node ends the session on another, on each server database the build was
 * given; a second logout of it on another node is no error, and the ends of sessions that have
 * expired by themselves are forgotten at the next logout.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class EndedSessionsDatabaseIT {
  static final Instant NOW = ConsoleSessionTest.NOW;

  @Parameter DatabaseServer server;
  FreshDatabase database;

  @BeforeEach
  void migrate() throws SQLException {
    database = server.create("identity_console");
    Database.open(database.dataSource()).close();
  }

  @AfterEach
  void drop() throws SQLException {
    database.close();
  }

  @Test
  void whenOneNodeEndsASessionThenTheOtherSeesItEndedAndExpiredEndsAreForgotten()
      throws SQLException {
    EndedSessions nodeA = new EndedSessions(database.dataSource());
    EndedSessions nodeB = new EndedSessions(database.dataSource());
    ConsoleSession shortLived = session(NOW.plus(Duration.ofMinutes(5)));
    ConsoleSession longLived = session(NOW.plus(Duration.ofHours(1)));
    ConsoleSession other = session(NOW.plus(Duration.ofHours(1)));

    nodeA.end(shortLived, NOW);
    nodeA.end(longLived, NOW);
    nodeB.end(longLived, NOW.plusSeconds(1));

    assertTrue(nodeB.isEnded(shortLived));
    assertTrue(nodeB.isEnded(longLived));
    assertFalse(nodeB.isEnded(other));
    assertEquals(2, rows());

    nodeB.end(other, NOW.plus(Duration.ofMinutes(10)));

    assertFalse(nodeA.isEnded(shortLived), "its own expiry ended it; the row is gone");
    assertTrue(nodeA.isEnded(longLived));
    assertEquals(2, rows());
  }

  private static ConsoleSession session(Instant expiresAt) {
    return ConsoleSession.start(
        ConsoleSessionTest.KEY, ConsoleSessionTest.TOKEN, expiresAt, NOW, new SecureRandom());
  }

  private long rows() throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("select count(*) from console_session_end")) {
      count.next();
      return count.getLong(1);
    }
  }
}
