package dev.platform.identity.config;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The short id stored beside what a key sealed or digested: a signing key row names its
 * key-encryption key, a client secret's digest its pepper, so that a rotation picks the one right
 * key without trying each. It is the first 8 bytes, in 16 lowercase hex digits, of HMAC-SHA-256
 * under the key of a label naming the key's purpose: short enough for a column and a log line, it
 * tells nothing of the key. Not a bare hash of the key: HMAC replaces a key longer than its 64-byte
 * block by that key's SHA-256, so a hash-prefix id of a long pepper would be 64 bits of the key
 * that actually digests the secrets; and the label keeps the same bytes used for two purposes from
 * showing the same id in two lists.
 */
public final class KeyId {
  /** Its length in characters. */
  public static final int LENGTH = 16;

  /** What a key is for; each has its own label, so its own ids. */
  public enum Purpose {
    KEY_ENCRYPTION("key-encryption key"),
    SECRET_PEPPER("secret pepper");

    private final byte[] label;

    Purpose(String name) {
      this.label = ("dev.platform.identity " + name + " id v1").getBytes(StandardCharsets.US_ASCII);
    }
  }

  private KeyId() {}

  /** The id of {@code key} used as {@code purpose}. */
  public static String of(SecretKey key, Purpose purpose) {
    try {
      Mac hmac = Mac.getInstance("HmacSHA256");
      hmac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
      return HexFormat.of().formatHex(hmac.doFinal(purpose.label), 0, LENGTH / 2);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }
}
