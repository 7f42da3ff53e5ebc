package dev.platform.identity.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * What a MariaDB connection must do that PostgreSQL and H2 do by themselves, checked once at start
 * on a connection of the pool, so a DataSource set up otherwise stops the start rather than storing
 * wrong data.
 *
 * <ul>
 *   <li>Times in UTC. MariaDB's DATETIME has no zone, and Connector/J writes an instant in the
 *       JVM's zone unless the URL says {@code connectionTimeZone=UTC&preserveInstants=true}: two
 *       nodes in two zones would then disagree about every expiry, and each autumn's repeated hour
 *       would be ambiguous.
 *   <li>Strict mode ({@code STRICT_TRANS_TABLES} or {@code STRICT_ALL_TABLES}, MariaDB's default):
 *       without it a value too long for its column is cut short instead of refused.
 * </ul>
 */
final class MariaDbSession {
  /** A fixed instant whose UTC text is known. */
  private static final OffsetDateTime PROBE =
      OffsetDateTime.of(2001, 2, 3, 4, 5, 6, 0, ZoneOffset.UTC);

  /** How MariaDB writes a DATETIME without fractional seconds as text. */
  private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

  static final String URL_OPTIONS = "connectionTimeZone=UTC&preserveInstants=true";

  private MariaDbSession() {}

  static void check(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      for (OffsetDateTime probe : probes(Instant.now())) {
        String utc = TEXT.format(probe);
        String written = written(connection, probe);
        if (!utc.equals(written)) {
          throw new UnsuitableDatabaseException(
              "java:comp/env/"
                  + Database.DATA_SOURCE
                  + " writes times to MariaDB in the JVM's zone, not in UTC (the instant "
                  + utc
                  + " UTC became "
                  + written
                  + "): add "
                  + URL_OPTIONS
                  + " to its URL (docs/configuration.md \"MariaDB\")");
        }
      }
      String mode = sqlMode(connection);
      if (!mode.contains("STRICT_TRANS_TABLES") && !mode.contains("STRICT_ALL_TABLES")) {
        throw new UnsuitableDatabaseException(
            "java:comp/env/"
                + Database.DATA_SOURCE
                + " runs MariaDB without strict mode (sql_mode is '"
                + mode
                + "'), which would cut a value too long for its column short instead of refusing"
                + " it: set STRICT_TRANS_TABLES on the server, or add"
                + " sessionVariables=sql_mode='STRICT_TRANS_TABLES' to the URL");
      }
    } catch (SQLException e) {
      throw DatabaseUnreachableException.of(dataSource, e);
    }
  }

  /**
   * The instants whose UTC text the connection must write: a fixed one, and one a month for a year
   * from {@code now}. One date alone misses a JVM zone whose offset is 0 only then: Europe/London
   * or Europe/Lisbon in winter (an hour off all summer), Africa/Casablanca in 2001 (UTC+1 now).
   */
  static List<OffsetDateTime> probes(Instant now) {
    List<OffsetDateTime> probes = new ArrayList<>();
    probes.add(PROBE);
    OffsetDateTime from = now.atOffset(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
    for (int month = 0; month <= 12; month++) {
      probes.add(from.plusMonths(month));
    }
    return probes;
  }

  /** The text MariaDB stores for {@code probe} when the connection binds it. */
  private static String written(Connection connection, OffsetDateTime probe) throws SQLException {
    try (PreparedStatement query =
        connection.prepareStatement("select cast(cast(? as datetime) as char)")) {
      query.setObject(1, probe);
      try (ResultSet result = query.executeQuery()) {
        result.next();
        return result.getString(1);
      }
    }
  }

  private static String sqlMode(Connection connection) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement("select @@session.sql_mode");
        ResultSet result = query.executeQuery()) {
      result.next();
      return String.valueOf(result.getString(1));
    }
  }
}
