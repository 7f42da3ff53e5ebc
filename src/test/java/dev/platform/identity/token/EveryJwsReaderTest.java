package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.platform.identity.jose.JwsAlgorithm;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.UnauthenticatedException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One table of odd tokens, run through every reader of a JWS: {@link BearerVerifier} for access
 * tokens and the token endpoint for {@code private_key_jwt} assertions. Each odd token carries a
 * genuine signature by a key its reader knows, so that only the JOSE rules (package {@code jose})
 * can refuse it; each reader must refuse each one, and take the token before it was made odd.
 */
class EveryJwsReaderTest {
  static final String ISSUER = "https://identity.example.test";
  static final long NOW = PrivateKeyJwtTokenTest.START.getEpochSecond();
  static final String RSA_HEADER = "{\"alg\":\"RS256\",\"kid\":\"r\",\"typ\":\"JWT\"}";
  static final String EC_HEADER = "{\"alg\":\"ES256\",\"kid\":\"e\",\"typ\":\"JWT\"}";
  static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  /** A JWS as its reader would take it: the header and claims, as JSON text. */
  record Jws(String header, String claims) {
    Jws header(Function<String, String> change) {
      return new Jws(change.apply(header), claims);
    }

    Jws claims(Function<String, String> change) {
      return new Jws(header, change.apply(claims));
    }

    String signed() {
      return signedAs(utf8(header), utf8(claims), BASE64URL::encodeToString);
    }

    String signedAs(byte[] headerBytes, byte[] claimsBytes, Function<byte[], String> encoder) {
      return sign(BASE64URL.encodeToString(headerBytes) + "." + encoder.apply(claimsBytes));
    }
  }

  /** The review's odd tokens, each made from a token its reader takes. */
  enum Odd {
    HEADER_WITH_A_BOM(jws -> jws.signedAs(bom(utf8(jws.header())), utf8(jws.claims()), b64())),
    CLAIMS_WITH_A_BOM(jws -> jws.signedAs(utf8(jws.header()), bom(utf8(jws.claims())), b64())),
    HEADER_IN_UTF16(
        jws ->
            jws.signedAs(
                jws.header().getBytes(StandardCharsets.UTF_16BE), utf8(jws.claims()), b64())),
    CLAIMS_IN_UTF16(
        jws ->
            jws.signedAs(
                utf8(jws.header()), jws.claims().getBytes(StandardCharsets.UTF_16LE), b64())),
    HEADER_MEMBER_NAMED_TWICE(
        jws -> jws.header(h -> "{\"alg\":\"RS256\"," + h.substring(1)).signed()),
    CLAIM_NAMED_TWICE(jws -> jws.claims(c -> "{\"jti\":\"other\"," + c.substring(1)).signed()),
    PADDED_BASE64URL(jws -> padded(jws)),
    SPARE_BITS_SET(jws -> spareBits(jws)),
    ALG_NONE(jws -> jws.header(h -> h.replace("RS256", "none")).signed()),
    ALG_HS256(jws -> jws.header(h -> h.replace("RS256", "HS256")).signed()),
    CRIT(jws -> jws.header(h -> h.replace("}", ",\"crit\":[\"exp\"]}")).signed()),
    HUGE_EXP(jws -> jws.claims(c -> c.replaceAll("\"exp\":\\d+", "\"exp\":1e400")).signed()),
    HUGE_INTEGER_EXP(
        jws -> jws.claims(c -> c.replaceAll("\"exp\":\\d+", "\"exp\":" + "9".repeat(40))).signed()),
    HUGE_IAT(jws -> jws.claims(c -> c.replaceAll("\"iat\":\\d+", "\"iat\":1e400")).signed()),
    HUGE_NBF(jws -> jws.claims(c -> c.replace("}", ",\"nbf\":" + "9".repeat(40) + "}")).signed()),
    ECDSA_R_AND_S_ZERO(
        jws ->
            BASE64URL.encodeToString(utf8(EC_HEADER))
                + "."
                + BASE64URL.encodeToString(utf8(jws.claims()))
                + "."
                + BASE64URL.encodeToString(new byte[64]));

    final Function<Jws, String> make;

    Odd(Function<Jws, String> make) {
      this.make = make;
    }
  }

  /** A reader of JWSs: whether it takes {@code token}, or refuses it on its own error surface. */
  interface Reader {
    Jws usual();

    void take(String token);

    void refuse(String token);
  }

  final PrivateKeyJwtTokenTest endpoint = new PrivateKeyJwtTokenTest();
  UUID client;

  final Reader accessTokens =
      new Reader() {
        final BearerVerifier verifier =
            BearerVerifier.builder()
                .issuer(ISSUER)
                .clock(Clock.fixed(PrivateKeyJwtTokenTest.START, ZoneOffset.UTC))
                .keyLocator(
                    kid ->
                        switch (kid) {
                          case "r" -> Optional.of(PrivateKeyJwtTokenTest.RSA.getPublic());
                          case "e" -> Optional.of(PrivateKeyJwtTokenTest.EC.getPublic());
                          default -> Optional.empty();
                        })
                .build();

        @Override
        public Jws usual() {
          return new Jws(
              RSA_HEADER,
              "{\"iss\":\""
                  + ISSUER
                  + "\",\"sub\":\"c\",\"client_id\":\"c\",\"jti\":\""
                  + UUID.randomUUID()
                  + "\",\"iat\":"
                  + NOW
                  + ",\"exp\":"
                  + (NOW + 600)
                  + ",\"scopes\":[]}");
        }

        @Override
        public void take(String token) {
          assertEquals("c", verifier.verifyToken(token, List.of()).clientId());
        }

        @Override
        public void refuse(String token) {
          UnauthenticatedException refusal =
              assertThrows(
                  UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()));
          assertEquals(401, refusal.status());
        }
      };

  final Reader clientAssertions =
      new Reader() {
        @Override
        public Jws usual() {
          return new Jws(
              RSA_HEADER,
              "{\"iss\":\""
                  + client
                  + "\",\"sub\":\""
                  + client
                  + "\",\"aud\":\""
                  + endpoint.tokenEndpoint
                  + "\",\"jti\":\""
                  + UUID.randomUUID()
                  + "\",\"iat\":"
                  + NOW
                  + ",\"exp\":"
                  + (NOW + 60)
                  + "}");
        }

        @Override
        public void take(String token) {
          assertNotNull(endpoint.issue(body(token)).accessToken());
        }

        @Override
        public void refuse(String token) {
          OAuthError refusal = endpoint.refused(body(token));
          assertEquals(OAuthError.INVALID_CLIENT, refusal.error());
          assertEquals(401, refusal.status());
        }

        private String body(String token) {
          return PrivateKeyJwtTokenTest.body(URLEncoder.encode(token, StandardCharsets.US_ASCII));
        }
      };

  @BeforeEach
  void start() throws Exception {
    endpoint.startKeys();
    client = endpoint.keyAccount();
  }

  @AfterEach
  void close() {
    endpoint.close();
  }

  @Test
  void whenTheTokenIsUsualThenEveryReaderTakesIt() {
    for (Reader reader : List.of(accessTokens, clientAssertions)) {
      reader.take(reader.usual().signed());
    }
  }

  @ParameterizedTest
  @EnumSource(Odd.class)
  void whenTheTokenIsOddThenEveryReaderRefusesIt(Odd odd) {
    for (Reader reader : List.of(accessTokens, clientAssertions)) {
      reader.refuse(odd.make.apply(reader.usual()));
    }
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static Function<byte[], String> b64() {
    return BASE64URL::encodeToString;
  }

  static byte[] bom(byte[] json) {
    byte[] with = new byte[json.length + 3];
    with[0] = (byte) 0xEF;
    with[1] = (byte) 0xBB;
    with[2] = (byte) 0xBF;
    System.arraycopy(json, 0, with, 3, json.length);
    return with;
  }

  /** The claims with a space or two before their end, so their base64url needs padding. */
  static Jws unaligned(Jws jws) {
    Jws spaced = jws;
    while (utf8(spaced.claims()).length % 3 == 0) {
      spaced = spaced.claims(c -> c.substring(0, c.length() - 1) + " }");
    }
    return spaced;
  }

  static String padded(Jws jws) {
    Jws spaced = unaligned(jws);
    return spaced.signedAs(
        utf8(spaced.header()), utf8(spaced.claims()), Base64.getUrlEncoder()::encodeToString);
  }

  /** The claims' last base64url character with a bit set that encodes nothing (RFC 4648 §3.5). */
  static String spareBits(Jws jws) {
    Jws spaced = unaligned(jws);
    return spaced.signedAs(
        utf8(spaced.header()),
        utf8(spaced.claims()),
        bytes -> {
          String text = BASE64URL.encodeToString(bytes);
          char last = ALPHABET.charAt(ALPHABET.indexOf(text.charAt(text.length() - 1)) | 1);
          return text.substring(0, text.length() - 1) + last;
        });
  }

  /** {@code input} with its genuine RS256 signature by the key "r" that both readers know. */
  static String sign(String input) {
    try {
      PrivateKey key = PrivateKeyJwtTokenTest.RSA.getPrivate();
      Signature signer = JwsAlgorithm.RS256.signer(key);
      signer.update(utf8(input));
      return input + "." + BASE64URL.encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
