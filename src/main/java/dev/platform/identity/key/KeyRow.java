package dev.platform.identity.key;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The columns of a {@code signing_key} row that its MAC covers ({@link KeyRowMac}): the key
 * material as stored (base64 text) and every time that decides whether the key is listed or signs.
 * Only {@code schedule_slot} is left out: it says which node may create the successor, and changes
 * whenever a key is revoked or retired, but it never makes a key listed or signing.
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
    Instant createdAt) {

  /**
   * An unambiguous encoding: each text length-prefixed, each time present-or-absent and then in
   * microseconds, the precision both databases store (a value read back must give the same bytes).
   */
  byte[] encoded() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (String text : new String[] {kid, publicKey, privateKey, privateKeyNonce}) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
      }
      for (Instant time :
          new Instant[] {publishedAt, activeFrom, expiresAt, revokedAt, createdAt}) {
        out.writeBoolean(time != null);
        if (time != null) {
          out.writeLong(time.getEpochSecond());
          out.writeInt(time.getNano() / 1000);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }
}
