package dev.platform.identity.key;

import java.math.BigInteger;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;

/** SPEC 2.3: one JSON Web Key of the published list; public members only. */
record Jwk(String kid, String kty, String use, String alg, String n, String e) {
  static Jwk from(SigningKey key) {
    RSAPublicKey rsa = key.rsaPublicKey();
    return new Jwk(
        key.kid(),
        "RSA",
        "sig",
        PublicKeyRecord.ALGORITHM,
        base64UrlUInt(rsa.getModulus()),
        base64UrlUInt(rsa.getPublicExponent()));
  }

  /** RFC 7518 §2 Base64urlUInt: big-endian in the fewest octets, no sign byte, no padding. */
  static String base64UrlUInt(BigInteger value) {
    byte[] bytes = value.toByteArray();
    if (bytes.length > 1 && bytes[0] == 0) {
      bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
