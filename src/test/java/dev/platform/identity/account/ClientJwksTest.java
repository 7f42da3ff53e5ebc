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

  // Issue 36 item 1: a fetched set skips what it cannot use, as RFC 7517 §5 allows.

  static final String OKP =
      "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"ed\","
          + "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}";

  static ClientJwks published(String... jwks) throws Exception {
    return ClientJwks.published(
        set(jwks).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  static String publishedRefusal(String... jwks) {
    return assertThrows(java.io.IOException.class, () -> published(jwks)).getMessage();
  }

  static String encJwk(KeyPair pair, String kid) {
    return new RSAKey.Builder((RSAPublicKey) pair.getPublic())
        .keyID(kid)
        .keyUse(KeyUse.ENCRYPTION)
        .build()
        .toJSONString();
  }

  @Test
  void whenAFetchedSetHoldsOneUnusableEntryThenTheOthersAreKeptAndOnlyThey() throws Exception {
    String p384 = ecJwk384(ec("secp384r1"), "p384");
    String weak = rsaJwk(rsa(1024), "weak");
    String withPrivate =
        new RSAKey.Builder((RSAPublicKey) RSA.getPublic())
            .privateKey(RSA.getPrivate())
            .keyID("leaked")
            .build()
            .toJSONString();

    for (String unusable : java.util.List.of(OKP, encJwk(RSA, "enc"), p384, weak, withPrivate)) {
      ClientJwks keys = published(ecJwk(EC, "new"), unusable);

      assertEquals(1, keys.keys().size(), unusable);
      assertEquals("new", keys.keys().get(0).kid());
      // The strict reading, for an administrator's set, still refuses the whole set.
      assertThrows(
          IllegalArgumentException.class, () -> ClientJwks.parse(set(ecJwk(EC, "new"), unusable)));
    }
  }

  @Test
  void whenAFetchedSetHasAKidNamedNullBesideAKeyWithoutKidThenTheNamedKeyIsKept() throws Exception {
    ClientJwks keys = published(rsaJwk(RSA, "null"), ecJwk(EC, null));

    assertEquals(1, keys.keys().size());
    assertEquals("null", keys.keys().get(0).kid());
    assertEquals(RSA.getPublic(), keys.find(Optional.of("null"), "RS256").orElseThrow().key());
  }

  @Test
  void whenAFetchedSetNamesKeysOrNTwiceThenItIsRefusedNotReadAsItsLastValue() throws Exception {
    KeyPair other = rsa(2048);
    String good = rsaJwk(RSA, "r1");
    String evil = rsaJwk(other, "r1");
    String twoKeys = "{\"keys\":[" + good + "],\"keys\":[" + evil + "]}";
    String evilN = evil.replaceAll(".*\"n\":(\"[^\"]*\").*", "$1");
    String twoN = "{\"keys\":[" + good.replace("\"n\":", "\"n\":" + evilN + ",\"n\":") + "]}";

    for (String body : java.util.List.of(twoKeys, twoN)) {
      assertEquals(
          "jwks is not JSON, or names a member twice",
          assertThrows(
                  java.io.IOException.class,
                  () ->
                      ClientJwks.published(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
              .getMessage(),
          body);
    }
  }

  static String ecJwk384(KeyPair pair, String kid) {
    return new ECKey.Builder(Curve.P_384, (ECPublicKey) pair.getPublic())
        .keyID(kid)
        .build()
        .toJSONString();
  }

  @Test
  void whenAFetchedSetHoldsNoUsableKeyThenItIsRefused() {
    assertTrue(
        publishedRefusal(OKP).startsWith("jwks holds no usable key (jwks: key 0 has kty 'OKP'"));
    assertEquals("jwks holds no usable key", publishedRefusal());
    assertEquals(
        "jwks must be an object with a 'keys' array",
        assertThrows(java.io.IOException.class, () -> ClientJwks.published("[]".getBytes()))
            .getMessage());
  }

  @Test
  void whenAFetchedSetHasMoreThanTenUsableKeysThenTheFirstTenAreKept() throws Exception {
    String[] jwks = new String[12];
    for (int i = 0; i < jwks.length; i++) {
      jwks[i] = ecJwk(EC, "k" + i);
    }

    ClientJwks keys = published(jwks);

    assertEquals(ClientJwks.MAX_KEYS, keys.keys().size());
    assertEquals("k9", keys.keys().get(9).kid());
    assertThrows(IllegalArgumentException.class, () -> ClientJwks.parse(set(jwks)));
  }

  @Test
  void whenAFetchedSetHasMoreEntriesThanTheCapThenItIsRefusedUnread() {
    String[] jwks = new String[ClientJwks.MAX_ENTRIES + 1];
    java.util.Arrays.fill(jwks, OKP);

    assertEquals("jwks holds more than 100 entries", publishedRefusal(jwks));
  }

  @Test
  void whenFetchedKeysShareAKidOrOneOfSeveralHasNoneThenThoseAreSkipped() throws Exception {
    String noKid =
        new ECKey.Builder(Curve.P_256, (ECPublicKey) EC.getPublic()).build().toJSONString();
    KeyPair other = ec("secp256r1");

    ClientJwks keys = published(ecJwk(EC, "same"), ecJwk(other, "same"), noKid, rsaJwk(RSA, "r"));

    assertEquals(1, keys.keys().size());
    assertEquals("r", keys.keys().get(0).kid());
    assertTrue(
        published(noKid, OKP).find(Optional.empty(), "ES256").isPresent(), "one key, no kid");
    // A use:enc entry may share the kid of the signature key (RFC 7517 §4.5): only one is usable.
    assertTrue(
        published(ecJwk(EC, "k"), encJwk(RSA, "k")).find(Optional.of("k"), "ES256").isPresent());
  }
}
