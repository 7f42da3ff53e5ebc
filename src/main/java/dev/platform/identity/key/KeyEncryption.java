package dev.platform.identity.key;

import dev.platform.identity.config.JndiSettings;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Private signing keys at rest (DESIGN decision 5): AES-256-GCM under the key-encryption key from
 * JNDI, a random nonce per key and the kid as associated data, so the database alone never yields a
 * signing key and a sealed key cannot be moved to another kid.
 */
public final class KeyEncryption {
  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecretKey keyEncryptionKey;
  private final SecureRandom random;
  private final RsaProvider rsa;

  public KeyEncryption(SecretKey keyEncryptionKey, SecureRandom random) {
    this(keyEncryptionKey, random, RsaProvider.jdk());
  }

  /** Decrypted private keys are imported into {@code rsa}, the provider that signs with them. */
  public KeyEncryption(SecretKey keyEncryptionKey, SecureRandom random, RsaProvider rsa) {
    this.rsa = rsa;
    this.keyEncryptionKey = keyEncryptionKey;
    this.random = random;
  }

  /** Encrypts the PKCS#8 encoding of {@code kid}'s private key. */
  SealedKey seal(String kid, byte[] pkcs8) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      return new SealedKey(nonce, cipher(Cipher.ENCRYPT_MODE, kid, nonce).doFinal(pkcs8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is unavailable", e);
    }
  }

  /**
   * Decrypts {@code kid}'s private key.
   *
   * @throws IllegalStateException naming {@code java:comp/env/identity/keyEncryptionKey} when it is
   *     not the key the private key was sealed under
   */
  PrivateKey open(String kid, SealedKey sealed) {
    byte[] pkcs8 = null;
    try {
      pkcs8 = cipher(Cipher.DECRYPT_MODE, kid, sealed.nonce()).doFinal(sealed.ciphertext());
      return rsa.keyFactory().generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    } catch (AEADBadTagException e) {
      throw new IllegalStateException(
          "java:comp/env/"
              + JndiSettings.KEY_ENCRYPTION_KEY
              + " does not decrypt signing key "
              + kid
              + ": it is not the key-encryption key the signing keys were stored under",
          e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("signing key " + kid + " cannot be decrypted", e);
    } finally {
      if (pkcs8 != null) {
        Arrays.fill(pkcs8, (byte) 0);
      }
    }
  }

  private Cipher cipher(int mode, String kid, byte[] nonce) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(TRANSFORMATION);
    cipher.init(mode, keyEncryptionKey, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(kid.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }
}
