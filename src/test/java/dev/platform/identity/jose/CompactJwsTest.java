package dev.platform.identity.jose;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of a compact JWS that every reader shares; the readers' own tests run the odd ones. */
class CompactJwsTest {
  static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  static String token(String header, String claims) {
    return part(header) + "." + part(claims) + ".c2ln";
  }

  static String part(String json) {
    return BASE64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void whenTheTokenIsWellFormedThenItsPartsAreDecoded() {
    CompactJws jws = CompactJws.parse(token("{\"alg\":\"ES256\",\"kid\":\"k\"}", "{\"a\":1}"));

    assertEquals("ES256", jws.header().require(Set.of("RS256", "ES256"), Set.of()));
    assertEquals("k", jws.header().kid());
    assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.UTF_8), jws.payload());
    assertArrayEquals("sig".getBytes(StandardCharsets.US_ASCII), jws.signature());
  }

  @Test
  void whenTheAlgIsNotInThisUsesListThenItIsRefused() {
    CompactJws jws = CompactJws.parse(token("{\"alg\":\"ES256\"}", "{}"));

    JwsException refusal =
        assertThrows(JwsException.class, () -> jws.header().require(Set.of("RS256"), Set.of()));
    assertEquals(JwsException.Reason.ALGORITHM, refusal.reason());
  }

  @Test
  void whenCritNamesWhatTheUseUnderstandsThenItIsTakenElseRefused() {
    CompactJws jws = CompactJws.parse(token("{\"alg\":\"RS256\",\"crit\":[\"b64\"]}", "{}"));

    assertEquals(List.of("b64"), jws.header().crit());
    assertEquals("RS256", jws.header().require(Set.of("RS256"), Set.of("b64")));
    JwsException refusal =
        assertThrows(JwsException.class, () -> jws.header().require(Set.of("RS256"), Set.of()));
    assertEquals(JwsException.Reason.CRITICAL, refusal.reason());
  }

  @ParameterizedTest
  @ValueSource(strings = {"a.b", "a.b.c.d", ".b.c", "a..c", "a.b.", "a=.b.c", "a.b!.c"})
  void whenTheTokenIsNotThreeBase64urlPartsThenItIsMalformed(String token) {
    assertEquals(
        JwsException.Reason.MALFORMED,
        assertThrows(JwsException.class, () -> CompactJws.parse(token)).reason());
  }

  @Test
  void whenTheHeaderWasReadBeforeThenItIsNotReadAgain() {
    String token = token("{\"alg\":\"RS256\",\"kid\":\"k\"}", "{}");
    CompactJws.Header known = CompactJws.parse(token).header();

    assertSame(known, CompactJws.parse(token, known).header());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"{\"zip\":\"DEF\"}", "{\"enc\":\"A128GCM\"}", "{\"alg\":1}", "{\"crit\":[]}"})
  void whenTheHeaderHasWhatNoJwsHasThenItIsRefused(String header) {
    assertEquals(
        JwsException.Reason.HEADER,
        assertThrows(JwsException.class, () -> CompactJws.parse(token(header, "{}"))).reason());
  }

  @Test
  void whenANestedMemberIsNamedTwiceThenTheObjectIsRefused() {
    byte[] claims = "{\"a\":{\"b\":1,\"b\":2}}".getBytes(StandardCharsets.UTF_8);

    assertEquals(
        JwsException.Reason.NOT_JSON,
        assertThrows(JwsException.class, () -> StrictJson.object(claims)).reason());
  }
}
