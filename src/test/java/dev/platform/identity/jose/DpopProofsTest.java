package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import dev.platform.identity.jose.DpopProofException.Reason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * RFC 9449 §4.3 at unit level: proofs made by the Nimbus OAuth SDK's {@code
 * DefaultDPoPProofFactory} are taken, and each refusal issue 40 lists is a refusal, by hand-made
 * proofs.
 */
class DpopProofsTest {
  static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  static final URI TOKEN = URI.create("https://id.example.com/oauth/token");
  static final KeyPair EC = pair("EC");
  static final KeyPair OTHER_EC = pair("EC");
  static final KeyPair RSA = pair("RSA");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final DpopProofs proofs =
      DpopProofs.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();

  @Test
  void whenNimbusMakesAnEs256ProofThenItIsTakenWithItsKeysThumbprint() throws Exception {
    ECKey jwk = ecJwk(EC);
    String proof =
        new DefaultDPoPProofFactory(jwk, JWSAlgorithm.ES256)
            .createDPoPJWT(new JWTID("jti-es"), "POST", TOKEN, Date.from(NOW), null)
            .serialize();

    DpopProof checked = check(proof, "POST", TOKEN);

    assertEquals(jwk.computeThumbprint().toString(), checked.thumbprint());
    assertEquals("jti-es", checked.jti());
    assertEquals(NOW, checked.issuedAt());
    assertEquals(NOW.plus(DpopProofs.DEFAULT_MAX_AGE), checked.usableUntil());
  }

  @Test
  void whenNimbusMakesAnRs256ProofWithTokenAndNonceThenItIsTaken() throws Exception {
    RSAKey jwk =
        new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).privateKey(RSA.getPrivate()).build();
    URI api = URI.create("https://api.example.com/orders");
    String proof =
        new DefaultDPoPProofFactory(jwk, JWSAlgorithm.RS256)
            .createDPoPJWT(
                new JWTID(),
                "GET",
                api,
                Date.from(NOW.minusSeconds(30)),
                new DPoPAccessToken("the.access.token"),
                new Nonce("n-1"))
            .serialize();

    DpopProof checked =
        proofs.check(
            List.of(proof),
            "GET",
            URI.create("https://api.example.com/orders?page=2"),
            Optional.of(DpopProofs.accessTokenHash("the.access.token")),
            Optional.of("n-1"));

    assertEquals(jwk.computeThumbprint().toString(), checked.thumbprint());
  }

  @Test
  void whenNoOrTwoDpopHeadersThenRefused() {
    String proof = es256(header(), claims());
    assertReason(Reason.HEADER_COUNT, () -> proofs.check(List.of(), "POST", TOKEN, none(), none()));
    assertReason(
        Reason.HEADER_COUNT,
        () -> proofs.check(List.of(proof, proof), "POST", TOKEN, none(), none()));
  }

  @Test
  void whenTheProofIsForAnotherMethodThenRefused() {
    assertReason(Reason.METHOD, () -> check(es256(header(), claims()), "GET", TOKEN));
  }

  @Test
  void whenTheProofIsForAnotherUrlThenRefused() {
    String proof = es256(header(), claims());
    assertReason(
        Reason.URI, () -> check(proof, "POST", URI.create("https://id.example.com/oauth/revoke")));
    assertReason(
        Reason.URI, () -> check(proof, "POST", URI.create("https://evil.example.com/oauth/token")));
    assertReason(
        Reason.URI, () -> check(proof, "POST", URI.create("http://id.example.com/oauth/token")));
  }

  @Test
  void whenTheRequestUriDiffersOnlyByCaseDefaultPortOrQueryThenTaken() {
    String proof = es256(header(), claims());
    check(proof, "POST", URI.create("https://ID.Example.COM/oauth/token"));
    check(proof, "POST", URI.create("https://id.example.com:443/oauth/token"));
    check(proof, "POST", URI.create("https://id.example.com/oauth/token?x=1#f"));
  }

  @Test
  void whenTheProofIsTooOldThenRefused() {
    Map<String, Object> claims = claims();
    claims.put("iat", NOW.minusSeconds(61).getEpochSecond());
    assertReason(Reason.TOO_OLD, () -> check(es256(header(), claims), "POST", TOKEN));
  }

  @Test
  void whenTheProofIsAtTheWindowsEdgesThenTaken() {
    Map<String, Object> old = claims();
    old.put("iat", NOW.minusSeconds(60).getEpochSecond());
    check(es256(header(), old), "POST", TOKEN);
    Map<String, Object> ahead = claims();
    ahead.put("iat", NOW.plusSeconds(10).getEpochSecond());
    check(es256(header(), ahead), "POST", TOKEN);
  }

  @Test
  void whenTheProofIsFromTheFutureThenRefused() {
    Map<String, Object> claims = claims();
    claims.put("iat", NOW.plusSeconds(11).getEpochSecond());
    assertReason(Reason.FUTURE, () -> check(es256(header(), claims), "POST", TOKEN));
  }

  @Test
  void whenTheWindowIsConfiguredThenItIsUsed() {
    DpopProofs strict =
        DpopProofs.builder()
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .maxAge(Duration.ofSeconds(5))
            .futureSkew(Duration.ZERO)
            .build();
    Map<String, Object> old = claims();
    old.put("iat", NOW.minusSeconds(6).getEpochSecond());
    Map<String, Object> ahead = claims();
    ahead.put("iat", NOW.plusSeconds(1).getEpochSecond());
    assertReason(
        Reason.TOO_OLD,
        () -> strict.check(List.of(es256(header(), old)), "POST", TOKEN, none(), none()));
    assertReason(
        Reason.FUTURE,
        () -> strict.check(List.of(es256(header(), ahead)), "POST", TOKEN, none(), none()));
  }

  @Test
  void whenSignedByAnotherKeyThanItsJwkThenRefused() {
    String proof = sign("ES256", OTHER_EC.getPrivate(), header(), claims());
    assertReason(Reason.SIGNATURE, () -> check(proof, "POST", TOKEN));
  }

  @Test
  void whenTheJwkIsPrivateThenRefused() {
    Map<String, Object> header = header();
    header.put(
        "jwk",
        new ECKey.Builder(Curve.P_256, (ECPublicKey) EC.getPublic())
            .privateKey((ECPrivateKey) EC.getPrivate())
            .build()
            .toJSONObject());
    assertReason(Reason.KEY, () -> check(es256(header, claims()), "POST", TOKEN));
  }

  @Test
  void whenTheJwkIsASecretKeyThenRefused() {
    Map<String, Object> header = header();
    header.put("jwk", Map.of("kty", "oct", "k", "c2VjcmV0"));
    assertReason(Reason.KEY, () -> check(es256(header, claims()), "POST", TOKEN));
  }

  @Test
  void whenTheJwkIsMissingThenRefused() {
    Map<String, Object> header = header();
    header.remove("jwk");
    assertReason(Reason.KEY, () -> check(es256(header, claims()), "POST", TOKEN));
  }

  @Test
  void whenTheJwkDoesNotFitTheAlgThenRefused() {
    Map<String, Object> header = header();
    header.put("alg", "RS256");
    assertReason(
        Reason.KEY, () -> check(sign("RS256", RSA.getPrivate(), header, claims()), "POST", TOKEN));
  }

  @Test
  void whenTheRsaJwkIsWeakThenRefused() {
    KeyPair weak = pair("RSA", 1024);
    Map<String, Object> header = header();
    header.put("alg", "RS256");
    header.put("jwk", new RSAKey.Builder((RSAPublicKey) weak.getPublic()).build().toJSONObject());
    DpopProofException refused =
        assertThrows(
            DpopProofException.class,
            () -> check(sign("RS256", weak.getPrivate(), header, claims()), "POST", TOKEN));
    assertEquals(Reason.KEY, refused.reason());
    assertTrue(refused.getMessage().contains("1024 bits"), refused.getMessage());
  }

  @Test
  void whenAlgIsNoneThenRefused() {
    Map<String, Object> header = header();
    header.put("alg", "none");
    String unsigned = encode(header) + "." + encode(claims()) + ".";
    assertReason(Reason.MALFORMED, () -> check(unsigned, "POST", TOKEN));
    String withSignature = encode(header) + "." + encode(claims()) + ".AAAA";
    assertReason(Reason.ALGORITHM, () -> check(withSignature, "POST", TOKEN));
  }

  @Test
  void whenAlgIsHs256ThenRefused() throws Exception {
    Map<String, Object> header = header();
    header.put("alg", "HS256");
    String input = encode(header) + "." + encode(claims());
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec("a shared secret of 32 bytes!!!!!".getBytes(), "HmacSHA256"));
    String proof = input + "." + B64.encodeToString(mac.doFinal(input.getBytes()));
    assertReason(Reason.ALGORITHM, () -> check(proof, "POST", TOKEN));
  }

  @Test
  void whenAlgIsNotOnTheAllowListThenRefused() {
    DpopProofs es256Only =
        DpopProofs.builder()
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .algorithms(Set.of(JwsAlgorithm.ES256))
            .build();
    Map<String, Object> header = header();
    header.put("alg", "RS256");
    header.put("jwk", new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).build().toJSONObject());
    String proof = sign("RS256", RSA.getPrivate(), header, claims());
    check(proof, "POST", TOKEN);
    assertReason(
        Reason.ALGORITHM, () -> es256Only.check(List.of(proof), "POST", TOKEN, none(), none()));
  }

  @Test
  void whenTheHeaderHasCritThenRefused() {
    Map<String, Object> header = header();
    header.put("crit", List.of("exp"));
    assertReason(Reason.ALGORITHM, () -> check(es256(header, claims()), "POST", TOKEN));
  }

  @Test
  void whenTypIsWrongOrMissingThenRefused() {
    for (Object typ : List.of("JWT", "DPOP+JWT", "application/dpop+jwt", 1)) {
      Map<String, Object> header = header();
      header.put("typ", typ);
      assertReason(Reason.TYPE, () -> check(es256(header, claims()), "POST", TOKEN));
    }
    Map<String, Object> header = header();
    header.remove("typ");
    assertReason(Reason.TYPE, () -> check(es256(header, claims()), "POST", TOKEN));
  }

  @Test
  void whenAnotherTokensAthThenRefused() {
    Map<String, Object> claims = claims();
    claims.put("ath", DpopProofs.accessTokenHash("another.token"));
    String proof = es256(header(), claims);
    Optional<String> ath = Optional.of(DpopProofs.accessTokenHash("this.token"));
    assertReason(
        Reason.ACCESS_TOKEN_HASH, () -> proofs.check(List.of(proof), "POST", TOKEN, ath, none()));
    assertReason(
        Reason.ACCESS_TOKEN_HASH,
        () -> proofs.check(List.of(es256(header(), claims())), "POST", TOKEN, ath, none()));
  }

  @Test
  void whenTheNonceIsWrongOrMissingThenRefused() {
    Map<String, Object> claims = claims();
    claims.put("nonce", "old");
    Optional<String> nonce = Optional.of("new");
    assertReason(
        Reason.NONCE,
        () -> proofs.check(List.of(es256(header(), claims)), "POST", TOKEN, none(), nonce));
    assertReason(
        Reason.NONCE,
        () -> proofs.check(List.of(es256(header(), claims())), "POST", TOKEN, none(), nonce));
  }

  @Test
  void whenAClaimIsMissingOrOfAnotherTypeThenRefused() {
    for (String claim : List.of("jti", "htm", "htu", "iat")) {
      Map<String, Object> claims = claims();
      claims.remove(claim);
      assertReason(Reason.CLAIMS, () -> check(es256(header(), claims), "POST", TOKEN));
    }
    Map<String, Object> numericJti = claims();
    numericJti.put("jti", 7);
    assertReason(Reason.CLAIMS, () -> check(es256(header(), numericJti), "POST", TOKEN));
    Map<String, Object> textIat = claims();
    textIat.put("iat", String.valueOf(NOW.getEpochSecond()));
    assertReason(Reason.CLAIMS, () -> check(es256(header(), textIat), "POST", TOKEN));
  }

  @Test
  void whenTheJtiIsTooLongThenRefused() {
    Map<String, Object> claims = claims();
    claims.put("jti", "j".repeat(DpopProofs.MAX_JTI + 1));
    assertReason(Reason.CLAIMS, () -> check(es256(header(), claims), "POST", TOKEN));
  }

  @Test
  void whenTheProofIsNotAJwtOrTooLongThenRefused() {
    assertReason(Reason.MALFORMED, () -> check("not a jwt", "POST", TOKEN));
    assertReason(Reason.MALFORMED, () -> check("a".repeat(9000), "POST", TOKEN));
  }

  @Test
  void whenTheHtuHoldsALoneSurrogateThenTheProofIsRefusedNotAnError() {
    // Found by the attacker's review: the JSON escape of half a UTF-16 pair, in the path, the
    // query or the user info, made URI.toASCIIString throw a NullPointerException (a 500).
    for (String htu :
        List.of(
            TOKEN + "\\ud800",
            TOKEN + "?q=\\udfff",
            "https://a\\ud800@id.example.com/oauth/token")) {
      String claims =
          "{\"jti\":\"j\",\"htm\":\"POST\",\"htu\":\""
              + htu
              + "\",\"iat\":"
              + NOW.getEpochSecond()
              + "}";
      String input =
          encode(header()) + "." + B64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
      String proof;
      try {
        var signer = JwsAlgorithm.ES256.signer(EC.getPrivate());
        signer.update(input.getBytes(StandardCharsets.US_ASCII));
        proof = input + "." + B64.encodeToString(signer.sign());
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
      assertReason(Reason.URI, () -> check(proof, "POST", TOKEN));
    }
  }

  private DpopProof check(String proof, String method, URI target) {
    return proofs.check(List.of(proof), method, target, none(), none());
  }

  private static Optional<String> none() {
    return Optional.empty();
  }

  static void assertReason(Reason reason, org.junit.jupiter.api.function.Executable call) {
    DpopProofException refused = assertThrows(DpopProofException.class, call);
    assertEquals(reason, refused.reason(), refused.getMessage());
  }

  static Map<String, Object> header() {
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("typ", "dpop+jwt");
    header.put("alg", "ES256");
    header.put(
        "jwk", new ECKey.Builder(Curve.P_256, (ECPublicKey) EC.getPublic()).build().toJSONObject());
    return header;
  }

  static Map<String, Object> claims() {
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("jti", "e1j3V_bKic8-LAEB");
    claims.put("htm", "POST");
    claims.put("htu", TOKEN.toString());
    claims.put("iat", NOW.getEpochSecond());
    return claims;
  }

  static String es256(Map<String, Object> header, Map<String, Object> claims) {
    return sign("ES256", EC.getPrivate(), header, claims);
  }

  static String sign(
      String alg, PrivateKey key, Map<String, Object> header, Map<String, Object> claims) {
    String input = encode(header) + "." + encode(claims);
    try {
      var signer = JwsAlgorithm.valueOf(alg).signer(key);
      signer.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + B64.encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String encode(Map<String, Object> members) {
    try {
      return B64.encodeToString(JSON.writeValueAsBytes(members));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static ECKey ecJwk(KeyPair pair) {
    return new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
        .privateKey((ECPrivateKey) pair.getPrivate())
        .build();
  }

  static KeyPair pair(String type) {
    return pair(type, 2048);
  }

  static KeyPair pair(String type, int rsaBits) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(type);
      if (type.equals("EC")) {
        generator.initialize(new ECGenParameterSpec("secp256r1"));
      } else {
        generator.initialize(rsaBits);
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
