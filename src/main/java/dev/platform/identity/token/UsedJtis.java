package dev.platform.identity.token;

import dev.platform.identity.db.Vendor;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.UUID;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Identifiers taken once, on every node, by the unique key of a table: a client assertion's {@code
 * jti} until the assertion expires (RFC 7523 §3 item 7, table {@code client_assertion_jti}), and a
 * DPoP proof's until the proof is too old to be taken (RFC 9449 §11.1, table {@code
 * dpop_proof_jti}). These are the token path's only writes, and only for clients that send an
 * assertion or a proof, after they authenticated: one INSERT in its own transaction. A jti is
 * stored as its SHA-256, so its length costs nothing.
 */
public final class UsedJtis {
  /** The tables, each {@code (client_id, jti_digest, expires_at)} keyed by the first two. */
  enum Table {
    CLIENT_ASSERTION("client_assertion_jti"),
    DPOP_PROOF("dpop_proof_jti");

    private final String name;

    Table(String name) {
      this.name = name;
    }
  }

  /** How many expired rows one purge statement deletes at most. */
  static final int BATCH = 1000;

  private static final Logger LOG = Logger.getLogger(UsedJtis.class.getName());

  private final DataSource dataSource;
  private final Table table;
  private final String insertSql;
  private final String deleteExpiredOne;

  /** The database, asked of the first connection: a field read on the token path after that. */
  private volatile Vendor vendor;

  /** The client assertions' jti values. */
  public UsedJtis(DataSource dataSource) {
    this(dataSource, Table.CLIENT_ASSERTION);
  }

  UsedJtis(DataSource dataSource, Table table) {
    this.dataSource = dataSource;
    this.table = table;
    this.insertSql =
        "insert into " + table.name + " (client_id, jti_digest, expires_at) values (?, ?, ?)";
    this.deleteExpiredOne =
        "delete from " + table.name + " where client_id = ? and jti_digest = ? and expires_at < ?";
  }

  /** The DPoP proofs' jti values, in the same database. */
  public UsedJtis dpopProofs() {
    return table == Table.DPOP_PROOF ? this : new UsedJtis(dataSource, Table.DPOP_PROOF);
  }

  /**
   * Takes {@code jti} for {@code clientId} until {@code expiresAt}.
   *
   * @return false when it is taken already and has not expired at {@code now}
   */
  boolean claim(UUID clientId, String jti, Instant expiresAt, Instant now) {
    String digest = digest(jti);
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      Vendor vendor = vendor(connection);
      if (insert(connection, vendor, clientId, digest, expiresAt)) {
        return true;
      }
      // Taken: by a replay, or by an expired assertion of the same jti not yet purged.
      return deleteExpired(connection, clientId, digest, now)
          && insert(connection, vendor, clientId, digest, expiresAt);
    } catch (SQLException e) {
      throw new IllegalStateException("the assertion's jti cannot be recorded: " + e, e);
    }
  }

  /**
   * Deletes the rows whose assertion has expired at {@code now}, {@link #BATCH} per statement.
   *
   * @return how many it deleted
   */
  public int purge(Instant now) {
    int deleted = 0;
    int last;
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      String deleteExpired =
          Vendor.of(connection)
              .deleteBatchBefore(table.name, "expires_at", "client_id, jti_digest");
      do {
        try (PreparedStatement delete = connection.prepareStatement(deleteExpired)) {
          delete.setObject(1, utc(now));
          delete.setInt(2, BATCH);
          last = delete.executeUpdate();
        }
        deleted += last;
      } while (last == BATCH);
    } catch (SQLException e) {
      LOG.warning("Expired jti values could not be deleted; the next run tries: " + e);
    }
    return deleted;
  }

  private boolean insert(
      Connection connection, Vendor vendor, UUID clientId, String digest, Instant expiresAt)
      throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(insertSql)) {
      insert.setString(1, clientId.toString());
      insert.setString(2, digest);
      insert.setObject(3, utc(expiresAt));
      insert.executeUpdate();
      return true;
    } catch (SQLException e) {
      if (vendor.isDuplicateKey(e)) {
        return false;
      }
      throw e;
    }
  }

  private boolean deleteExpired(Connection connection, UUID clientId, String digest, Instant now)
      throws SQLException {
    try (PreparedStatement delete = connection.prepareStatement(deleteExpiredOne)) {
      delete.setString(1, clientId.toString());
      delete.setString(2, digest);
      delete.setObject(3, utc(now));
      return delete.executeUpdate() == 1;
    }
  }

  private Vendor vendor(Connection connection) throws SQLException {
    Vendor known = vendor;
    if (known == null) {
      known = Vendor.of(connection);
      vendor = known;
    }
    return known;
  }

  /** As every instant is stored: a UTC TIMESTAMP WITH TIME ZONE (db.InstantConverter). */
  private static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  static String digest(String jti) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(jti.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
