package dev.platform.identity.verify;

import static dev.platform.identity.verify.TestTokens.CLOCK;
import static dev.platform.identity.verify.TestTokens.ISSUER;
import static dev.platform.identity.verify.TestTokens.KID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 23: the header and claims as the streaming reader takes them, each token signed by the
 * right key, so that the rule and not the signature refuses it.
 */
class BearerVerifierJsonTest {
  private static final KeyPair KEYS = TestTokens.rsaKeyPair();
  private static final String HEADER = TestTokens.HEADER_JSON;

  private static final String CLAIMS = TestTokens.CLAIMS_JSON;

  private final BearerVerifier verifier =
      BearerVerifier.builder()
          .issuer(ISSUER)
          .clock(CLOCK)
          .keyLocator(kid -> KID.equals(kid) ? Optional.of(KEYS.getPublic()) : Optional.empty())
          .build();

  /** {@code header} and {@code payload}, as written, signed RS256 by the verifier's key. */
  private static String signed(String header, String payload) {
    return TestTokens.signedBytes(
        header.getBytes(StandardCharsets.UTF_8),
        payload.getBytes(StandardCharsets.UTF_8),
        KEYS.getPrivate());
  }

  private String refusal(String token) {
    return assertThrows(
            UnauthenticatedException.class, () -> verifier.verifyToken(token, List.of()))
        .getMessage();
  }

  @Test
  void whenHeaderAndClaimsAreWrittenByHandThenTheTokenVerifies() {
    assertEquals(
        List.of("catalog:*"),
        verifier.verifyToken(signed(HEADER, "{" + CLAIMS + "}"), List.of()).scopes());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"crit\":[\"exp\"],\"exp\":1}",
        "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"zip\":\"DEF\"}",
        "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"enc\":\"A128GCM\"}",
        "{\"alg\":\"HS256\",\"alg\":\"RS256\",\"kid\":\"" + KID + "\"}",
        "{\"alg\":\"RS256\",\"kid\":\"other\",\"kid\":\"" + KID + "\"}",
        "{\"alg\":\"RS256\",\"kid\":\"\"}",
        "{\"alg\":[\"RS256\"],\"kid\":\"" + KID + "\"}",
        "{\"alg\":\"RS256\",\"kid\":7}",
        "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\"} {}",
        "[\"RS256\"]",
        "{\"alg\":\"RS256\",\"kid\":\"" + KID + "\""
      })
  void whenTheHeaderBreaksARuleThenInvalidEvenWithAGoodSignature(String header) {
    assertEquals("invalid token", refusal(signed(header, "{" + CLAIMS + "}")));
    // Once a good header verified (and is remembered), the bad one is still read and refused.
    verifier.verifyToken(signed(HEADER, "{" + CLAIMS + "}"), List.of());
    assertEquals("invalid token", refusal(signed(header, "{" + CLAIMS + ",\"n\":1}")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        ",\"iss\":\"https://evil.test\"",
        ",\"exp\":9999999999",
        ",\"scopes\":[\"admin:*\"]",
        ",\"client_id\":\"someone-else\""
      })
  void whenAClaimTheVerifierReadsIsNamedTwiceThenInvalid(String again) {
    assertEquals("invalid token", refusal(signed(HEADER, "{" + CLAIMS + again + "}")));
  }

  @Test
  void whenAChannelActionIsNamedTwiceThenInvalid() {
    String channels = ",\"channel_permissions\":{\"publish\":[\"a.*\"],\"publish\":[\"b.*\"]}";

    assertEquals("invalid token", refusal(signed(HEADER, "{" + CLAIMS + channels + "}")));
  }

  @Test
  void whenAClaimNobodyReadsIsNamedTwiceThenInvalid() {
    // One rule for every reader of a JWS (package jose): another reader may read this claim.
    String token = signed(HEADER, "{" + CLAIMS + ",\"note\":1,\"note\":{\"x\":[1,{}]}}");

    assertEquals("invalid token", refusal(token));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{" + CLAIMS + "} {}", "{" + CLAIMS, "[" + CLAIMS + "]", "\"claims\""})
  void whenThePayloadIsNotOneJsonObjectThenInvalid(String payload) {
    assertEquals("invalid token", refusal(signed(HEADER, payload)));
  }

  @Test
  void whenAnArrayClaimHoldsANestedValueThenInvalidAndTheRestIsStillRead() {
    String token =
        signed(
            HEADER,
            "{\"scopes\":[\"a:*\",[\"b\"],{\"c\":1}],\"accessible_orgs\":[],"
                + CLAIMS.replace("\"scopes\":[\"catalog:*\"]", "\"x\":0")
                + "}");

    assertEquals("invalid token", refusal(token));
  }

  @Test
  void whenChannelPermissionsIsNullThenTheAliasIsNotRead() {
    String channels = ",\"channel_permissions\":null,\"cs_permissions\":{\"publish\":[\"a.*\"]}";

    assertEquals(
        ChannelPermissions.NONE,
        verifier
            .verifyToken(signed(HEADER, "{" + CLAIMS + channels + "}"), List.of())
            .channelPermissions());
  }
}
