package dev.platform.identity.console;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The console sessions that a logout ended before their time (table {@code console_session_end},
 * V17), shared by every node through the database. Each row lasts until the session would have
 * ended anyway; a logout deletes the rows past that.
 */
final class EndedSessions {
  private final DataSource dataSource;

  EndedSessions(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Ends {@code session} on every node, and forgets the sessions that have ended by themselves. */
  void end(ConsoleSession session, Instant now) {
    try (Connection connection = dataSource.getConnection()) {
      try (PreparedStatement delete =
          connection.prepareStatement("delete from console_session_end where expires_at < ?")) {
        delete.setTimestamp(1, Timestamp.from(now));
        delete.executeUpdate();
      }
      if (isEnded(connection, session.id())) {
        return;
      }
      try (PreparedStatement insert =
          connection.prepareStatement(
              "insert into console_session_end (session_id, expires_at) values (?, ?)")) {
        insert.setString(1, session.id());
        insert.setTimestamp(2, Timestamp.from(session.expiresAt()));
        insert.executeUpdate();
      } catch (SQLException e) {
        if (!isEnded(connection, session.id())) {
          throw e; // not a second logout of the same session on another node
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot end the console session: " + e.getMessage(), e);
    }
  }

  boolean isEnded(ConsoleSession session) {
    try (Connection connection = dataSource.getConnection()) {
      return isEnded(connection, session.id());
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the ended console sessions", e);
    }
  }

  private static boolean isEnded(Connection connection, String id) throws SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("select 1 from console_session_end where session_id = ?")) {
      select.setString(1, id);
      try (ResultSet found = select.executeQuery()) {
        return found.next();
      }
    }
  }
}
