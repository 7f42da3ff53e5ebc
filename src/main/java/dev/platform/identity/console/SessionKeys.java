package dev.platform.identity.console;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the console's cookies with AES-256-GCM under a key derived from the
 * key-encryption key (HMAC-SHA-256 of a label), so every node that holds the key-encryption key
 * opens what any other sealed, and nothing else can read or forge a session. Cookies sealed under a
 * previous key-encryption key still open while the operator rotates it; new ones are sealed under
 * the current key only.
 *
 * <p>A sealed value is {@code base64url(version || iv || ciphertext+tag)}; the cookie's name is the
 * associated data, so a value cannot be moved from one cookie to another.
 */
final class SessionKeys {
  private static final byte VERSION = 1;
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final byte[] LABEL =
      "dev.platform.identity console session key v1".getBytes(StandardCharsets.US_ASCII);

  private final SecretKey current;
  private final List<SecretKey> all;
  private final SecureRandom random;

  /**
   * @param keyEncryptionKey the current key-encryption key, which seals
   * @param previous earlier key-encryption keys, which only open
   */
  SessionKeys(SecretKey keyEncryptionKey, List<SecretKey> previous, SecureRandom random) {
    this.current = derive(keyEncryptionKey);
    List<SecretKey> keys = new ArrayList<>();
    keys.add(current);
    previous.stream().map(SessionKeys::derive).forEach(keys::add);
    this.all = List.copyOf(keys);
    this.random = random;
  }

  /** {@code plain} sealed for the cookie {@code name}. */
  String seal(String name, byte[] plain) {
    byte[] iv = new byte[IV_BYTES];
    random.nextBytes(iv);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, current, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(name.getBytes(StandardCharsets.US_ASCII));
      byte[] sealed = cipher.doFinal(plain);
      ByteBuffer out = ByteBuffer.allocate(1 + IV_BYTES + sealed.length);
      out.put(VERSION).put(iv).put(sealed);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is unavailable", e);
    }
  }

  /** What {@code value} holds if this service sealed it for the cookie {@code name}; else empty. */
  Optional<byte[]> open(String name, String value) {
    byte[] raw;
    try {
      raw = Base64.getUrlDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (raw.length < 1 + IV_BYTES + TAG_BITS / 8 || raw[0] != VERSION) {
      return Optional.empty();
    }
    for (SecretKey key : all) {
      try {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 1, IV_BYTES));
        cipher.updateAAD(name.getBytes(StandardCharsets.US_ASCII));
        return Optional.of(cipher.doFinal(raw, 1 + IV_BYTES, raw.length - 1 - IV_BYTES));
      } catch (AEADBadTagException e) {
        // not sealed under this key: try the next
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES-GCM is unavailable", e);
      }
    }
    return Optional.empty();
  }

  private static SecretKey derive(SecretKey keyEncryptionKey) {
    try {
      Mac hmac = Mac.getInstance("HmacSHA256");
      hmac.init(new SecretKeySpec(keyEncryptionKey.getEncoded(), "HmacSHA256"));
      return new SecretKeySpec(hmac.doFinal(LABEL), "AES");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }
}
