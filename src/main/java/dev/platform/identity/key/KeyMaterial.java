package dev.platform.identity.key;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.RSAKeyGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * A freshly generated RSA key pair, its private half already sealed: the plain private key never
 * leaves {@link #generate}.
 *
 * @param kid random and URL-safe: base64url of 128 random bits
 * @param publicKey the X.509 SubjectPublicKeyInfo encoding
 * @param privateKey the PKCS#8 encoding, sealed for this kid
 */
record KeyMaterial(String kid, byte[] publicKey, SealedKey privateKey) {
  /** DESIGN decision 5: never less. */
  static final int MIN_BITS = 2048;

  private static final int KID_BYTES = 16;

  /** Generates an RSA key of {@code bits} with public exponent 65537 and seals its private half. */
  static KeyMaterial generate(int bits, KeyEncryption encryption, SecureRandom random) {
    if (bits < MIN_BITS) {
      throw new IllegalArgumentException("RSA signing keys have at least 2048 bits, not " + bits);
    }
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
      return new KeyMaterial(kid, pair.getPublic().getEncoded(), encryption.seal(kid, pkcs8));
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  private static String kid(SecureRandom random) {
    byte[] bytes = new byte[KID_BYTES];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
