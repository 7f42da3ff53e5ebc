package dev.platform.identity.key;

import dev.platform.identity.config.JndiSettings;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Private signing keys at rest (DESIGN decision 5): AES-256-GCM under the key-encryption key from
 * JNDI, a random nonce per key and the kid as associated data, so the database alone never yields a
 * signing key and a sealed key cannot be moved to another kid.
 *
 * <p>The key-encryption key can be rotated. New keys are sealed under the current one; a stored key
 * names the key it was sealed under by id, and opens under that one, current or one of {@code
 * identity/previousKeyEncryptionKeys} (decryption only), without trying each in turn.
 */
public final class KeyEncryption {
  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final KeyEncryptionKey current;
  private final Map<String, KeyEncryptionKey> byId = new HashMap<>();
  private final SecureRandom random;
  private final RsaProvider rsa;

  public KeyEncryption(SecretKey keyEncryptionKey, SecureRandom random) {
    this(keyEncryptionKey, List.of(), random, RsaProvider.jdk());
  }

  public KeyEncryption(SecretKey keyEncryptionKey, SecureRandom random, RsaProvider rsa) {
    this(keyEncryptionKey, List.of(), random, rsa);
  }

  /**
   * Seals under {@code current}; opens under it and under {@code previous}. Decrypted private keys
   * are imported into {@code rsa}, the provider that signs with them.
   */
  public KeyEncryption(
      SecretKey current, List<SecretKey> previous, SecureRandom random, RsaProvider rsa) {
    this.current = KeyEncryptionKey.of(current);
    this.random = random;
    this.rsa = rsa;
    byId.put(this.current.id(), this.current);
    for (SecretKey key : previous) {
      KeyEncryptionKey decryptOnly = KeyEncryptionKey.of(key);
      byId.putIfAbsent(decryptOnly.id(), decryptOnly);
    }
  }

  /** The provider that signs with the keys this opens. */
  RsaProvider rsa() {
    return rsa;
  }

  /** The key new private keys are sealed under. */
  KeyEncryptionKey current() {
    return current;
  }

  /**
   * The key with id {@code kekId}, which the row of signing key {@code kid} names.
   *
   * @throws IllegalStateException naming both ids and the fix when this node does not hold it: it
   *     must not start (or refresh) as if the key did not exist, since it may be the current one
   */
  KeyEncryptionKey named(String kekId, String kid) {
    return find(kekId)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "java:comp/env/"
                        + JndiSettings.KEY_ENCRYPTION_KEY
                        + " does not decrypt signing key "
                        + SigningKeys.printable(kid)
                        + ": it is sealed under key-encryption key "
                        + SigningKeys.printable(String.valueOf(kekId))
                        + ", which this node does not hold. Add the key-encryption key with id "
                        + SigningKeys.printable(String.valueOf(kekId))
                        + " to java:comp/env/"
                        + JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS
                        + " (or make it java:comp/env/"
                        + JndiSettings.KEY_ENCRYPTION_KEY
                        + " again),"
                        + " or delete the row if nobody can vouch for it"));
  }

  private Optional<KeyEncryptionKey> find(String kekId) {
    return Optional.ofNullable(kekId == null ? null : byId.get(kekId));
  }

  /** Encrypts the PKCS#8 encoding of {@code kid}'s private key under the current key. */
  SealedKey seal(String kid, byte[] pkcs8) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      byte[] ciphertext = cipher(Cipher.ENCRYPT_MODE, current, kid, nonce).doFinal(pkcs8);
      return new SealedKey(nonce, ciphertext, current.id());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is unavailable", e);
    }
  }

  /**
   * Decrypts {@code kid}'s private key under the key-encryption key its {@code kekId} names.
   *
   * @throws IllegalStateException naming the key ids when this node does not hold that key, or it
   *     does not decrypt the key
   */
  PrivateKey open(String kid, SealedKey sealed) {
    byte[] pkcs8 = decrypt(kid, sealed);
    try {
      return rsa.keyFactory().generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("signing key " + kid + " cannot be decrypted", e);
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  /**
   * {@code kid}'s private key sealed anew under the current key, with a fresh nonce; the plain key
   * exists only in this method.
   */
  SealedKey reseal(String kid, SealedKey sealed) {
    byte[] pkcs8 = decrypt(kid, sealed);
    try {
      return seal(kid, pkcs8);
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  private byte[] decrypt(String kid, SealedKey sealed) {
    KeyEncryptionKey key = named(sealed.kekId(), kid);
    try {
      return cipher(Cipher.DECRYPT_MODE, key, kid, sealed.nonce()).doFinal(sealed.ciphertext());
    } catch (AEADBadTagException e) {
      throw new IllegalStateException(
          "java:comp/env/"
              + (key == current
                  ? JndiSettings.KEY_ENCRYPTION_KEY
                  : JndiSettings.PREVIOUS_KEY_ENCRYPTION_KEYS)
              + " does not decrypt signing key "
              + kid
              + " with key-encryption key "
              + key.id()
              + ": it is not the key-encryption key the signing key was stored under",
          e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("signing key " + kid + " cannot be decrypted", e);
    }
  }

  private static Cipher cipher(int mode, KeyEncryptionKey key, String kid, byte[] nonce)
      throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(TRANSFORMATION);
    cipher.init(mode, key.key(), new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(kid.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }
}
