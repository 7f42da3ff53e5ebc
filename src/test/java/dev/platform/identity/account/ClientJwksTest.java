package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 22: what a private_key_jwt client may register as its public keys, and what not. */
class ClientJwksTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final KeyPair RSA = rsa(2048);
  static final KeyPair EC = ec("secp256r1");

  static KeyPair rsa(int bits) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(bits);
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static KeyPair ec(String curve) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(curve));
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static String rsaJwk(KeyPair pair, String kid) {
    return new RSAKey.Builder((RSAPublicKey) pair.getPublic()).keyID(kid).build().toJSONString();
  }

  static String ecJwk(KeyPair pair, String kid) {
    return new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
        .keyID(kid)
        .build()
        .toJSONString();
  }

  static JsonNode set(String... jwks) throws Exception {
    return JSON.readTree("{\"keys\":[" + String.join(",", jwks) + "]}");
  }

  static String refusal(String... jwks) throws Exception {
    JsonNode set = set(jwks);
    return assertThrows(IllegalArgumentException.class, () -> ClientJwks.parse(set)).getMessage();
  }

  @Test
  void whenAnRsaAndAnEcKeyAreGivenThenEachIsFoundByKidForItsAlgorithmsOnly() throws Exception {
    ClientJwks keys = ClientJwks.parse(set(rsaJwk(RSA, "r"), ecJwk(EC, "e")));
    assertEquals(RSA.getPublic(), keys.find(Optional.of("r"), "RS256").get().key());
    assertTrue(keys.find(Optional.of("r"), "PS256").isPresent());
    assertFalse(keys.find(Optional.of("r"), "ES256").isPresent());
    assertEquals(EC.getPublic(), keys.find(Optional.of("e"), "ES256").get().key());
    assertFalse(keys.find(Optional.of("e"), "RS256").isPresent());
    assertFalse(keys.find(Optional.of("other"), "RS256").isPresent());
    assertFalse(keys.find(Optional.empty(), "RS256").isPresent(), "no kid among two keys");
  }

  @Test
  void whenTheOnlyKeyHasNoKidThenAnAssertionWithoutKidFindsIt() throws Exception {
    ClientJwks keys = ClientJwks.parse(set(rsaJwk(RSA, null)));
    assertEquals(RSA.getPublic(), keys.find(Optional.empty(), "RS256").get().key());
  }

  @Test
  void whenAKeyNamesItsAlgThenOnlyThatAlgorithmMayUseIt() throws Exception {
    String jwk =
        new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
            .keyID("r")
            .algorithm(com.nimbusds.jose.JWSAlgorithm.PS256)
            .keyUse(KeyUse.SIGNATURE)
            .build()
            .toJSONString();
    ClientJwks keys = ClientJwks.parse(set(jwk));
    assertTrue(keys.find(Optional.of("r"), "PS256").isPresent());
    assertFalse(keys.find(Optional.of("r"), "RS256").isPresent());
  }

  @Test
  void whenAPrivateKeyIsGivenThenTheSetIsRefusedNamingTheMember() throws Exception {
    String jwk =
        new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
            .privateKey(RSA.getPrivate())
            .keyID("r")
            .build()
            .toJSONString();
    assertTrue(refusal(jwk).contains("private member"), refusal(jwk));
    String ecPrivate =
        new ECKey.Builder(Curve.P_256, (ECPublicKey) EC.getPublic())
            .privateKey(EC.getPrivate())
            .build()
            .toJSONString();
    assertTrue(refusal(ecPrivate).contains("'d'"), refusal(ecPrivate));
    assertTrue(refusal("{\"kty\":\"oct\",\"k\":\"c2VjcmV0\"}").contains("'k'"));
  }

  @Test
  void whenAnRsaKeyIsWeakerThan2048BitsThenItIsRefused() throws Exception {
    assertTrue(refusal(rsaJwk(rsa(1024), "weak")).contains("1024 bits"));
  }

  @Test
  void whenTheCurveIsNotP256ThenTheKeyIsRefused() throws Exception {
    String p384 =
        new ECKey.Builder(Curve.P_384, (ECPublicKey) ec("secp384r1").getPublic())
            .build()
            .toJSONString();
    assertTrue(refusal(p384).contains("P-256"), refusal(p384));
  }

  @Test
  void whenThePointIsNotOnTheCurveThenTheKeyIsRefused() throws Exception {
    JsonNode good = JSON.readTree(ecJwk(EC, "e"));
    byte[] y = Base64.getUrlDecoder().decode(good.get("y").asText());
    y[31] ^= 1;
    String moved =
        "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\""
            + good.get("x").asText()
            + "\",\"y\":\""
            + Base64.getUrlEncoder().withoutPadding().encodeToString(y)
            + "\"}";
    assertTrue(refusal(moved).contains("not on the P-256 curve"), refusal(moved));
  }

  @Test
  void whenKidsRepeatOrOneOfSeveralKeysHasNoneThenTheSetIsRefused() throws Exception {
    assertTrue(refusal(rsaJwk(RSA, "a"), ecJwk(EC, "a")).contains("repeats the kid"));
    assertTrue(refusal(rsaJwk(RSA, "a"), ecJwk(EC, null)).contains("has no kid"));
  }

  @Test
  void whenAKeyIsForEncryptionOrOfAnotherTypeThenItIsRefused() throws Exception {
    String enc =
        new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
            .keyUse(KeyUse.ENCRYPTION)
            .build()
            .toJSONString();
    assertTrue(refusal(enc).contains("use 'enc'"));
    assertTrue(refusal("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"AA\"}").contains("'OKP'"));
    String hs =
        new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
            .algorithm(com.nimbusds.jose.JWSAlgorithm.HS256)
            .build()
            .toJSONString();
    assertTrue(refusal(hs).contains("alg 'HS256'"));
  }

  @Test
  void whenTheSetIsEmptyMalformedOrTooLargeThenItIsRefused() throws Exception {
    assertThrows(IllegalArgumentException.class, () -> ClientJwks.parse(JSON.readTree("{}")));
    assertThrows(IllegalArgumentException.class, () -> ClientJwks.parse(set()));
    assertThrows(IllegalArgumentException.class, () -> ClientJwks.parse(JSON.readTree("[]")));
    String[] eleven = new String[11];
    for (int i = 0; i < eleven.length; i++) {
      eleven[i] = ecJwk(EC, "k" + i);
    }
    assertTrue(refusal(eleven).contains("1 to 10 keys"));
    assertTrue(refusal("{\"kty\":\"RSA\",\"n\":42,\"e\":\"AQAB\"}").contains("not a string"));
    assertTrue(refusal("{\"kty\":\"RSA\",\"n\":\"***\",\"e\":\"AQAB\"}").contains("base64url"));
  }

  @Test
  void whenTheSetIsKeptThenOnlyPublicMembersRemain() throws Exception {
    JsonNode jwk = JSON.readTree(rsaJwk(RSA, "r"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) jwk).put("x5u", "https://example.com/c");
    ClientJwks keys = ClientJwks.parse(set(jwk.toString()));
    JsonNode kept = JSON.readTree(keys.json()).get("keys").get(0);
    assertFalse(kept.has("x5u"));
    assertEquals("r", kept.get("kid").asText());
    assertEquals(jwk.get("n"), kept.get("n"));
  }

  @Test
  void whenNumbersArePaddedOrTheExponentIsHugeThenTheKeyIsRefused() throws Exception {
    JsonNode good = JSON.readTree(rsaJwk(RSA, "r"));
    byte[] n = Base64.getUrlDecoder().decode(good.get("n").asText());
    byte[] padded = new byte[n.length + 16000];
    System.arraycopy(n, 0, padded, 16000, n.length);
    String zeros =
        "{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\""
            + Base64.getUrlEncoder().withoutPadding().encodeToString(padded)
            + "\"}";
    assertTrue(refusal(zeros).contains("leading zero octets"), refusal(zeros));
    String hugeExponent =
        "{\"kty\":\"RSA\",\"e\":\"AQAAAAAB\",\"n\":\"" + good.get("n").asText() + "\"}";
    assertTrue(refusal(hugeExponent).contains("more than 32 bits"), refusal(hugeExponent));
  }

  @Test
  void whenAValueIsRepeatedInARefusalThenItIsShortPrintableAscii() throws Exception {
    String forged = "sig\\n2026-11-25 INFO [dev.platform.identity.audit] {\\\"event\\\":\\\"x\\\"}";
    String jwk = "{\"kty\":\"RSA\",\"use\":\"" + forged + "\",\"e\":\"AQAB\",\"n\":\"AQAB\"}";
    String message = refusal(jwk);
    assertFalse(message.contains("\n"), message);
    assertTrue(message.length() < 120, message);
  }
}
