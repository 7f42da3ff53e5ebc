package dev.platform.identity.key;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.RSAKeyGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * A freshly generated RSA key pair, its private half already sealed ({@link #generate}: the plain
 * private key never leaves it) or inside a PKCS#11 token ({@link #inToken}).
 *
 * @param kid random and URL-safe: base64url of 128 random bits
 * @param publicKey the X.509 SubjectPublicKeyInfo encoding
 * @param privateKey the PKCS#8 encoding, sealed for this kid; null when the key is in a token
 * @param home where the private half lives
 * @param kekId the key-encryption key whose MAC key vouches for the row (and that sealed the
 *     private key, if the database holds it)
 */
record KeyMaterial(
    String kid, byte[] publicKey, SealedKey privateKey, PrivateKeyHome home, String kekId) {
  /** DESIGN decision 5: never less. */
  static final int MIN_BITS = 2048;

  private static final int KID_BYTES = 16;

  /** Generates an RSA key of {@code bits} with public exponent 65537 and seals its private half. */
  static KeyMaterial generate(int bits, KeyEncryption encryption, SecureRandom random) {
    checkSize(bits);
    KeyPair pair;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(new RSAKeyGenParameterSpec(bits, RSAKeyGenParameterSpec.F4), random);
      pair = generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("RSA key generation is unavailable", e);
    }
    String kid = kid(random);
    byte[] pkcs8 = pair.getPrivate().getEncoded();
    try {
      SealedKey sealed = encryption.seal(kid, pkcs8);
      return new KeyMaterial(
          kid, pair.getPublic().getEncoded(), sealed, PrivateKeyHome.DATABASE, sealed.kekId());
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  /** A key made inside a token under {@code kid}; the row is vouched for under {@code kekId}. */
  static KeyMaterial inToken(String kid, byte[] publicKey, String kekId) {
    return new KeyMaterial(kid, publicKey, null, PrivateKeyHome.PKCS11, kekId);
  }

  /** Checks {@code bits} against DESIGN decision 5. */
  static void checkSize(int bits) {
    if (bits < MIN_BITS) {
      throw new IllegalArgumentException("RSA signing keys have at least 2048 bits, not " + bits);
    }
  }

  static String kid(SecureRandom random) {
    byte[] bytes = new byte[KID_BYTES];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
