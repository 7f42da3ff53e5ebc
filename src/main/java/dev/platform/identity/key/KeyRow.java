package dev.platform.identity.key;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * The columns of a {@code signing_key} row that its MAC covers ({@link KeyRowMac}): the key
 * material as stored (base64 text) and every time that decides whether the key is listed or signs.
 * Only {@code schedule_slot} is left out: it says which node may create the successor, and changes
 * whenever a key is revoked or retired, but it never makes a key listed or signing.
 *
 * <p>A key in a PKCS#11 token has no private key text (null) and its {@code home}. The encoding of
 * a database key is what it was before, so the MACs of existing rows still hold.
 */
record KeyRow(
    String kid,
    String publicKey,
    String privateKey,
    String privateKeyNonce,
    Instant publishedAt,
    Instant activeFrom,
    Instant expiresAt,
    Instant revokedAt,
    Instant createdAt,
    PrivateKeyHome home) {

  /**
   * An unambiguous encoding: each text length-prefixed (-1 for none), each time present-or-absent
   * and then in microseconds, the precision both databases store (a value read back must give the
   * same bytes), then the home unless it is the database.
   */
  byte[] encoded() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (String text : new String[] {kid, publicKey, privateKey, privateKeyNonce}) {
        if (text == null) {
          out.writeInt(-1);
        } else {
          byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
          out.writeInt(utf8.length);
          out.write(utf8);
        }
      }
      for (Instant time :
          new Instant[] {publishedAt, activeFrom, expiresAt, revokedAt, createdAt}) {
        out.writeBoolean(time != null);
        if (time != null) {
          out.writeLong(time.getEpochSecond());
          out.writeInt(time.getNano() / 1000);
        }
      }
      if (home != PrivateKeyHome.DATABASE) {
        out.writeUTF(home.column());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * The row at {@code rows}' cursor, from a query that selects these columns by name; for the Java
   * migrations, which read through JDBC and ran before any key could be in a token.
   */
  static KeyRow read(ResultSet rows) throws SQLException {
    return new KeyRow(
        rows.getString("kid"),
        rows.getString("public_key"),
        rows.getString("private_key"),
        rows.getString("private_key_nonce"),
        time(rows, "published_at"),
        time(rows, "active_from"),
        time(rows, "expires_at"),
        time(rows, "revoked_at"),
        time(rows, "created_at"),
        PrivateKeyHome.DATABASE);
  }

  private static Instant time(ResultSet rows, String column) throws SQLException {
    OffsetDateTime time = rows.getObject(column, OffsetDateTime.class);
    return time == null ? null : time.toInstant();
  }
}
