package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ES256 signatures whose r or s is 0 or the curve order n are refused before the JCA sees them
 * (CVE-2022-21449 accepted r = s = 0 on JDK 17.0.0 to 17.0.2), and a genuine signature still
 * verifies.
 */
class JwsAlgorithmEcdsaTest {
  static final KeyPair P256 = p256();
  static final BigInteger N = ((ECPublicKey) P256.getPublic()).getParams().getOrder();
  static final byte[] INPUT =
      "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0".getBytes(StandardCharsets.US_ASCII);

  static KeyPair p256() {
    try {
      KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
      ec.initialize(new ECGenParameterSpec("secp256r1"));
      return ec.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] genuine() throws Exception {
    Signature signer = Signature.getInstance("SHA256withECDSAinP1363Format");
    signer.initSign(P256.getPrivate());
    signer.update(INPUT);
    return signer.sign();
  }

  /** 32 bytes, big-endian, of {@code value} (0 or n both fit). */
  static byte[] fixed(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] out = new byte[32];
    int from = Math.max(0, bytes.length - 32);
    System.arraycopy(bytes, from, out, 32 - (bytes.length - from), bytes.length - from);
    return out;
  }

  static byte[] rs(byte[] r, byte[] s) {
    byte[] both = Arrays.copyOf(r, 64);
    System.arraycopy(s, 0, both, 32, 32);
    return both;
  }

  static boolean verifies(byte[] signature) {
    return JwsAlgorithm.ES256.verify(P256.getPublic(), INPUT, signature);
  }

  @Test
  void whenTheSignatureIsGenuineThenItVerifies() throws Exception {
    byte[] signature = genuine();

    assertTrue(JwsAlgorithm.ecdsaInRange(signature, N));
    assertTrue(verifies(signature));
  }

  @ParameterizedTest
  @ValueSource(strings = {"r=0", "s=0", "r=n", "s=n", "r=s=0", "r=s=n"})
  void whenROrSIsZeroOrTheOrderThenTheSignatureIsRefusedBeforeTheProvider(String forgery)
      throws Exception {
    byte[] signature = genuine();
    byte[] r = Arrays.copyOfRange(signature, 0, 32);
    byte[] s = Arrays.copyOfRange(signature, 32, 64);
    byte[] zero = fixed(BigInteger.ZERO);
    byte[] n = fixed(N);
    byte[] forged =
        switch (forgery) {
          case "r=0" -> rs(zero, s);
          case "s=0" -> rs(r, zero);
          case "r=n" -> rs(n, s);
          case "s=n" -> rs(r, n);
          case "r=s=0" -> rs(zero, zero);
          default -> rs(n, n);
        };

    assertAll(
        () -> assertFalse(JwsAlgorithm.ecdsaInRange(forged, N), "the range check"),
        () -> assertFalse(verifies(forged), "the whole check"));
  }

  @Test
  void whenTheSignatureIsNotSixtyFourBytesThenItIsRefused() throws Exception {
    byte[] signature = genuine();

    assertFalse(JwsAlgorithm.ecdsaInRange(Arrays.copyOf(signature, 63), N));
    assertFalse(JwsAlgorithm.ecdsaInRange(Arrays.copyOf(signature, 65), N));
    assertFalse(verifies(new byte[0]));
  }

  @Test
  void whenRIsNMinusOneThenTheRangeAllowsIt() {
    byte[] edge = rs(fixed(N.subtract(BigInteger.ONE)), fixed(BigInteger.ONE));

    assertTrue(JwsAlgorithm.ecdsaInRange(edge, N));
    assertEquals(32, fixed(N).length);
  }
}
