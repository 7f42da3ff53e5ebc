package dev.platform.identity.revoke;

import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The revocations in the database (V20): plain JDBC on the guarded DataSource, so every statement
 * meets the database deadline and bulkhead (issue 35). A revocation and the raise of {@code
 * revocation_version} commit together; a cut-off made with an account's change runs in that
 * change's transaction.
 */
final class RevocationStore {
  private static final String VERSION = "select version from revocation_version where id = 1";
  private static final String RAISE =
      "update revocation_version set version = version + 1 where id = 1";
  private static final String TOKENS = "select jti, client_id, expires_at from revoked_token";
  private static final String CUTOFFS =
      "select client_id, not_before, covers_until from account_token_cutoff";
  private static final String STORED_TOKEN = "select 1 from revoked_token where jti = ?";
  private static final String LIVE_TOKENS_OF =
      "select count(*) from revoked_token where client_id = ? and expires_at > ?";
  private static final String LIVE_TOKENS =
      "select count(*) from revoked_token where expires_at > ?";
  private static final String INSERT_TOKEN =
      "insert into revoked_token (jti, client_id, expires_at, revoked_at) values (?, ?, ?, ?)";
  private static final String RAISE_CUTOFF =
      "update account_token_cutoff set not_before = greatest(not_before, ?),"
          + " covers_until = greatest(covers_until, ?) where client_id = ?";
  private static final String INSERT_CUTOFF =
      "insert into account_token_cutoff (client_id, not_before, covers_until) values (?, ?, ?)";
  private static final String DELETE_TOKENS = "delete from revoked_token where expires_at <= ?";
  private static final String DELETE_CUTOFFS =
      "delete from account_token_cutoff where covers_until <= ?";

  private final DataSource dataSource;

  RevocationStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * How many revoked jtis in force a revocation may find before it becomes a cut-off.
   *
   * @param perAccount of the token's account
   * @param inAll of all accounts
   */
  record Caps(int perAccount, int inAll) {
    /** No cap: the jti is stored, whatever there is. */
    static final Caps NONE = new Caps(Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  /** What the database holds. */
  record Rows(long version, List<RevokedToken> tokens, List<AccountCutoff> accounts) {}

  /** The current version. */
  long version() throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(VERSION);
        ResultSet row = select.executeQuery()) {
      return row.next() ? row.getLong(1) : 0;
    }
  }

  /**
   * Every row, and the version read before them: rows committed after that read may be among them,
   * which only makes the next refresh read once more.
   */
  Rows read() throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      long version;
      try (PreparedStatement select = connection.prepareStatement(VERSION);
          ResultSet row = select.executeQuery()) {
        version = row.next() ? row.getLong(1) : 0;
      }
      List<RevokedToken> tokens = new ArrayList<>();
      try (PreparedStatement select = connection.prepareStatement(TOKENS);
          ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          tokens.add(new RevokedToken(rows.getString(1), rows.getString(2), instant(rows, 3)));
        }
      }
      List<AccountCutoff> accounts = new ArrayList<>();
      try (PreparedStatement select = connection.prepareStatement(CUTOFFS);
          ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          accounts.add(new AccountCutoff(rows.getString(1), instant(rows, 2), instant(rows, 3)));
        }
      }
      return new Rows(version, tokens, accounts);
    }
  }

  /**
   * Stores {@code token}, unless its jti is stored already, and raises the version; or, when its
   * account or all accounts have as many revoked jtis in force as {@code caps} allow, stores {@code
   * instead} (a cut-off that covers it) in place of the jti, keeping a later cut-off of the account
   * if one is stored. Every revocation takes the version row's lock first, so the check and the
   * write are not raced by another node's revocation.
   *
   * @return the cut-off stored in the jti's place, or empty when the jti is stored (or was)
   */
  Optional<AccountCutoff> revoke(RevokedToken token, Instant now, Caps caps, AccountCutoff instead)
      throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try {
        try (PreparedStatement raise = connection.prepareStatement(RAISE)) {
          raise.executeUpdate(); // first: the version row's lock orders concurrent revocations
        }
        Optional<AccountCutoff> stored = Optional.empty();
        if (!exists(connection, token.jti())) {
          if (withinCaps(connection, token.clientId(), now, caps)) {
            insert(connection, token, now);
          } else {
            cutOff(connection, instead);
            stored = Optional.of(instead);
          }
          connection.commit();
        } // else stored already: the finally's rollback undoes the raise, so no node reads again
        return stored;
      } finally {
        if (!connection.getAutoCommit()) {
          connection.rollback(); // nothing after a commit; everything after a failure
          connection.setAutoCommit(true);
        }
      }
    }
  }

  private static boolean exists(Connection connection, String jti) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(STORED_TOKEN)) {
      select.setString(1, jti);
      try (ResultSet row = select.executeQuery()) {
        return row.next();
      }
    }
  }

  private static boolean withinCaps(Connection connection, String clientId, Instant now, Caps caps)
      throws SQLException {
    if (caps.equals(Caps.NONE)) {
      return true;
    }
    try (PreparedStatement ofAccount = connection.prepareStatement(LIVE_TOKENS_OF);
        PreparedStatement inAll = connection.prepareStatement(LIVE_TOKENS)) {
      ofAccount.setString(1, clientId);
      ofAccount.setObject(2, utc(now));
      inAll.setObject(1, utc(now));
      return count(ofAccount) < caps.perAccount() && count(inAll) < caps.inAll();
    }
  }

  private static long count(PreparedStatement count) throws SQLException {
    try (ResultSet row = count.executeQuery()) {
      return row.next() ? row.getLong(1) : 0;
    }
  }

  private static void insert(Connection connection, RevokedToken token, Instant now)
      throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(INSERT_TOKEN)) {
      insert.setString(1, token.jti());
      insert.setString(2, token.clientId());
      insert.setObject(3, utc(token.expiresAt()));
      insert.setObject(4, utc(now));
      insert.executeUpdate();
    }
  }

  private static void cutOff(Connection connection, AccountCutoff cutoff) throws SQLException {
    try (PreparedStatement raise = connection.prepareStatement(RAISE_CUTOFF)) {
      raise.setObject(1, utc(cutoff.notBefore()));
      raise.setObject(2, utc(cutoff.until()));
      raise.setString(3, cutoff.clientId());
      if (raise.executeUpdate() > 0) {
        return;
      }
    }
    try (PreparedStatement insert = connection.prepareStatement(INSERT_CUTOFF)) {
      insert.setString(1, cutoff.clientId());
      insert.setObject(2, utc(cutoff.notBefore()));
      insert.setObject(3, utc(cutoff.until()));
      insert.executeUpdate();
    }
  }

  /**
   * Stores {@code cutoff} in the transaction of {@code em}, keeping a later one of its account (a
   * revocation the cap turned into a cut-off while the change waited for its lock), and raises the
   * version. The caller holds the account row's lock, so one account's cut-offs are written one at
   * a time.
   */
  void cutOff(EntityManager em, AccountCutoff cutoff) {
    em.createNativeQuery(RAISE).executeUpdate();
    int updated =
        em.createNativeQuery(RAISE_CUTOFF)
            .setParameter(1, utc(cutoff.notBefore()))
            .setParameter(2, utc(cutoff.until()))
            .setParameter(3, cutoff.clientId())
            .executeUpdate();
    if (updated == 0) {
      em.createNativeQuery(INSERT_CUTOFF)
          .setParameter(1, cutoff.clientId())
          .setParameter(2, utc(cutoff.notBefore()))
          .setParameter(3, utc(cutoff.until()))
          .executeUpdate();
    }
  }

  /** Deletes the rows no token they cover outlives at {@code now}; no version change needed. */
  int purge(Instant now) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      int deleted = 0;
      for (String sql : List.of(DELETE_TOKENS, DELETE_CUTOFFS)) {
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
          delete.setObject(1, utc(now));
          deleted += delete.executeUpdate();
        }
      }
      return deleted;
    }
  }

  private static Instant instant(ResultSet rows, int column) throws SQLException {
    return rows.getObject(column, OffsetDateTime.class).toInstant();
  }

  /** As every instant is stored: a UTC TIMESTAMP WITH TIME ZONE (db.InstantConverter). */
  private static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
