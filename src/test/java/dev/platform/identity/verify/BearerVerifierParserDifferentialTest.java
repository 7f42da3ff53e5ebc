package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLIENT_ID;
import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The attacker review of issue 23: tokens signed by the right key whose bytes the JJWT-based
 * verifier of f4e191d refused. The failing ones are accepted by the streaming reader (a parser
 * differential that needs the issuer's signature); the passing ones pin what it already refuses.
 */
class BearerVerifierParserDifferentialTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final String HEADER = TestTokens.HEADER_JSON;
  private static final String CLAIMS = TestTokens.CLAIMS_JSON;
  private static final String PAYLOAD = "{" + CLAIMS + "}";
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final BearerVerifier verifier =
      BearerVerifier.builder()
          .issuer(ISSUER)
          .clock(CLOCK)
          .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
          .build();

  private static String signed(byte[] header, byte[] payload) {
    return TestTokens.signedBytes(header, payload, KEYS.getPrivate());
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] part : parts) {
      length += part.length;
    }
    byte[] all = new byte[length];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }

  private String refusal(String token) {
    return assertThrows(BearerTokenException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }

  @Test
  void whenHandWrittenThenTheBaselineVerifies() {
    assertEquals(
        CLIENT_ID, verifier.verifyToken(signed(utf8(HEADER), utf8(PAYLOAD)), List.of()).clientId());
  }

  /**
   * Found by the attacker review, fixed since: Jackson's byte reader detects the encoding (BOM,
   * UTF-16, UTF-32) where JJWT read UTF-8 only; RFC 7515/7519 say UTF-8. The old verifier answered
   * "invalid token" to each.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "header with a UTF-8 BOM",
        "payload with a UTF-8 BOM",
        "header in UTF-16LE",
        "payload in UTF-16BE",
        "payload in UTF-32BE"
      })
  void whenHeaderOrPayloadIsNotPlainUtf8ThenInvalid(String form) {
    byte[] header = utf8(HEADER);
    byte[] payload = utf8(PAYLOAD);
    switch (form) {
      case "header with a UTF-8 BOM" -> header = concat(BOM, header);
      case "payload with a UTF-8 BOM" -> payload = concat(BOM, payload);
      case "header in UTF-16LE" -> header = HEADER.getBytes(StandardCharsets.UTF_16LE);
      case "payload in UTF-16BE" -> payload = PAYLOAD.getBytes(StandardCharsets.UTF_16BE);
      case "payload in UTF-32BE" -> payload = PAYLOAD.getBytes(Charset.forName("UTF-32BE"));
      default -> throw new IllegalArgumentException(form);
    }

    assertEquals("invalid token", refusal(signed(header, payload)));
  }

  /**
   * Found by the attacker review, fixed since: CompactJws's class comment says "a member named
   * twice is refused, in the header and in the claims", and JJWT refused it; the header reader
   * refuses only alg and kid twice.
   */
  @Test
  void whenAHeaderMemberIsNamedTwiceThenInvalid() {
    String header = "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"typ\":\"JWT\",\"typ\":\"JOSE\"}";

    assertEquals("invalid token", refusal(signed(utf8(header), utf8(PAYLOAD))));
  }

  /**
   * Found by the attacker review, fixed since: java.util.Base64 ignores the unused low bits of the
   * last character, so each genuine token is accepted under 16 spellings (4 spare bits for a
   * 2048-bit signature), each a cache entry of its own. Not new (JJWT took them too), but the cache
   * now multiplies it.
   */
  @Test
  void whenTheSignatureIsSpelledWithOtherTrailingBitsThenRefused() {
    String token = signed(utf8(HEADER), utf8(PAYLOAD));
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = token.charAt(token.length() - 1);
    String respelled =
        token.substring(0, token.length() - 1) + alphabet.charAt(alphabet.indexOf(last) ^ 1);

    verifier.verifyToken(token, List.of());
    assertThrows(BearerTokenException.class, () -> verifier.verifyToken(respelled, List.of()));
  }

  /** Refused as before: what the UTF-8 reader itself rejects, and JSON that is not JSON. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "overlong i in the name iss",
        "overlong a in the header name alg",
        "encoded surrogate in a skipped claim",
        "invalid byte in a skipped claim",
        "NUL after the object",
        "comment",
        "NaN exp",
        "leading zero exp",
        "exp with a huge exponent",
        "iss again as an escaped name",
        "alg in lower case",
        "alg null"
      })
  void whenTheJsonIsOddThenInvalid(String form) {
    byte[] header = utf8(HEADER);
    byte[] payload = utf8(PAYLOAD);
    String rest = "\"client_id\":\"" + CLIENT_ID + "\",\"exp\":1740834000}";
    switch (form) {
      case "overlong i in the name iss" ->
          payload =
              concat(
                  utf8("{\""),
                  new byte[] {(byte) 0xC1, (byte) 0xA9},
                  utf8("ss\":\"" + ISSUER + "\"," + rest));
      case "overlong a in the header name alg" ->
          header =
              concat(
                  utf8("{\""),
                  new byte[] {(byte) 0xC1, (byte) 0xA1},
                  utf8("lg\":\"RS256\",\"kid\":\"" + KID + "\"}"));
      case "encoded surrogate in a skipped claim" ->
          payload =
              concat(
                  utf8("{" + CLAIMS + ",\"n\":\""),
                  new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                  utf8("\"}"));
      case "invalid byte in a skipped claim" ->
          payload = concat(utf8("{" + CLAIMS + ",\"n\":\""), new byte[] {(byte) 0xFF}, utf8("\"}"));
      case "NUL after the object" -> payload = concat(payload, new byte[] {0});
      case "comment" -> payload = utf8("{/* x */" + CLAIMS + "}");
      case "NaN exp" -> payload = utf8(PAYLOAD.replace("1740834000", "NaN"));
      case "leading zero exp" -> payload = utf8(PAYLOAD.replace("1740834000", "01740834000"));
      case "exp with a huge exponent" ->
          payload = utf8(PAYLOAD.replace("1740834000", "1e999999999"));
      case "iss again as an escaped name" ->
          payload = utf8("{" + CLAIMS + ",\"\\u0069ss\":\"" + ISSUER + "\"}");
      case "alg in lower case" -> header = utf8(HEADER.replace("RS256", "rs256"));
      case "alg null" -> header = utf8(HEADER.replace("\"RS256\"", "null"));
      default -> throw new IllegalArgumentException(form);
    }

    assertEquals("invalid token", refusal(signed(header, payload)));
  }

  /** Refused as before: the compact form itself bent. */
  @ParameterizedTest
  @ValueSource(strings = {"==", ".AAAA", "\n", " "})
  void whenTheCompactFormIsBentThenMalformed(String suffix) {
    assertEquals("malformed bearer token", refusal(signed(utf8(HEADER), utf8(PAYLOAD)) + suffix));
  }
}
