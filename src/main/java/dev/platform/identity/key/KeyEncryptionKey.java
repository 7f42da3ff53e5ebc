package dev.platform.identity.key;

import dev.platform.identity.config.KeyId;
import javax.crypto.SecretKey;

/**
 * One key-encryption key with what a row needs of it: its id, which each row stores so that the
 * right key is chosen without trial decryption, and the MAC key derived from it, which vouches for
 * the rows it sealed.
 *
 * @param id its {@link KeyId}
 */
record KeyEncryptionKey(String id, SecretKey key, KeyRowMac mac) {
  static KeyEncryptionKey of(SecretKey key) {
    return new KeyEncryptionKey(idOf(key), key, new KeyRowMac(key));
  }

  /** The id of {@code key} ({@link KeyId}). */
  static String idOf(SecretKey key) {
    return KeyId.of(key, KeyId.Purpose.KEY_ENCRYPTION);
  }

  @Override
  public String toString() {
    return "KeyEncryptionKey[" + id + "]"; // never the key
  }
}
