package dev.platform.identity.config;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.SecretKey;

/**
 * The short id stored beside what a key sealed or digested (issue 19): a signing key row names its
 * key-encryption key, a client secret's digest its pepper, so that rotation picks the one right key
 * without trying each. The first 8 bytes of the key's SHA-256, as 16 lowercase hex digits: short
 * enough for a column and a log line, and of a 256-bit random key it tells nothing useful.
 */
public final class KeyId {
  /** Its length in characters. */
  public static final int LENGTH = 16;

  private KeyId() {}

  /** {@code hex(SHA-256(key bytes)[0..8])}. */
  public static String of(SecretKey key) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
      return HexFormat.of().formatHex(digest, 0, LENGTH / 2);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e);
    }
  }
}
