package dev.platform.identity.key;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.SecretKey;

/**
 * One key-encryption key with what a row needs of it (issue 19 §2): its id, which each row stores
 * so that the right key is chosen without trial decryption, and the MAC key derived from it, which
 * vouches for the rows it sealed.
 *
 * @param id the first 8 bytes of the key's SHA-256, as 16 lowercase hex characters: short enough
 *     for a column and a log line, and it says nothing useful about the key itself
 */
record KeyEncryptionKey(String id, SecretKey key, KeyRowMac mac) {
  private static final int ID_BYTES = 8;

  static KeyEncryptionKey of(SecretKey key) {
    return new KeyEncryptionKey(idOf(key), key, new KeyRowMac(key));
  }

  /** The id of {@code key}: {@code hex(SHA-256(key bytes)[0..8])}. */
  static String idOf(SecretKey key) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
      return HexFormat.of().formatHex(digest, 0, ID_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e);
    }
  }

  @Override
  public String toString() {
    return "KeyEncryptionKey[" + id + "]"; // never the key
  }
}
