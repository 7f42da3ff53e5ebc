package dev.platform.identity.account;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.SecretKey;

/**
 * The short id stored beside each digest (issue 19): the first 8 bytes of the SHA-256 of the
 * pepper's bytes, in 16 lowercase hex digits, the derivation the key-encryption keys' ids use. It
 * names a pepper without revealing it, and lets a token request pick the one pepper to compute.
 */
final class PepperId {
  static final int LENGTH = 16;

  private PepperId() {}

  static String of(SecretKey pepper) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(pepper.getEncoded());
      return HexFormat.of().formatHex(hash, 0, LENGTH / 2);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e);
    }
  }
}
