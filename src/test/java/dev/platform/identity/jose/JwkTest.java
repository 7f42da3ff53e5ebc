package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 7638 thumbprints, and the key rules every reader of a client's JWK shares. */
class JwkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void whenAnRsaKeyIsThumbprintedThenItIsRfc7638sAsNimbusComputesIt() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    RSAPublicKey key = (RSAPublicKey) rsa.generateKeyPair().getPublic();
    assertEquals(
        new RSAKey.Builder(key).build().computeThumbprint().toString(), Jwk.thumbprint(key));
  }

  @Test
  void whenAP256KeyIsThumbprintedThenItIsRfc7638sAsNimbusComputesIt() throws Exception {
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp256r1"));
    for (int i = 0; i < 20; i++) { // some with a coordinate shorter than 32 bytes as a number
      KeyPair pair = ec.generateKeyPair();
      ECPublicKey key = (ECPublicKey) pair.getPublic();
      assertEquals(
          new ECKey.Builder(Curve.P_256, key).build().computeThumbprint().toString(),
          Jwk.thumbprint(key));
    }
  }

  @Test
  void whenAKeyIsWrittenAsAPublicJwkThenNimbusReadsTheSameKeyAndJwkReadsItBack() throws Exception {
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp256r1"));
    ECPublicKey point = (ECPublicKey) ec.generateKeyPair().getPublic();
    String ecJwk = Jwk.publicJwk(point);
    assertEquals(point, ECKey.parse(ecJwk).toECPublicKey());
    assertEquals(point, Jwk.p256(JSON.readTree(ecJwk)));
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    RSAPublicKey modulus = (RSAPublicKey) rsa.generateKeyPair().getPublic();
    String rsaJwk = Jwk.publicJwk(modulus);
    assertEquals(modulus, RSAKey.parse(rsaJwk).toRSAPublicKey());
    assertEquals(modulus, Jwk.rsa(JSON.readTree(rsaJwk)));
    assertEquals(
        List.of("crv", "kty", "x", "y"),
        JSON.readTree(ecJwk).properties().stream().map(Map.Entry::getKey).toList(),
        "RFC 7638's members, in order");
  }

  @Test
  void whenTheRfc7638ExampleKeyIsThumbprintedThenItIsTheRfcsThumbprint() throws Exception {
    String n =
        "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_B"
            + "JECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_"
            + "FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI"
            + "4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
    var key = Jwk.rsa(JSON.valueToTree(Map.of("kty", "RSA", "n", n, "e", "AQAB")));
    assertEquals("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", Jwk.thumbprint(key));
  }

  @Test
  void whenAnRsaJwkIsWeakThenRefusedSayingWhy() {
    String n =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(BigInteger.ONE.shiftLeft(1022).setBit(0).toByteArray());
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> Jwk.rsa(JSON.valueToTree(Map.of("kty", "RSA", "n", n, "e", "AQAB"))));
    assertEquals("is an RSA key of 1023 bits: 2048 to 8192 are taken", refused.getMessage());
  }

  @Test
  void whenAnEcJwkHasNoCrvThenRefusedSayingWhy() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> Jwk.p256(JSON.valueToTree(Map.of("kty", "EC", "x", "AA", "y", "AA"))));
    assertEquals("has crv 'null': only P-256 is taken", refused.getMessage());
  }
}
