package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.VerifiedToken;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 7662 §2.2's shapes: the active answer's fields, and the one inactive answer. */
class IntrospectionAnswerTest {
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");

  @Test
  void whenActiveThenClaimsScopeStringAndBearerType() throws Exception {
    KeyPair key = rsa();
    String payload =
        "{\"iss\":\"https://id.example\",\"aud\":\"*\",\"sub\":\"c1\",\"client_id\":\"c1\","
            + "\"jti\":\"j1\",\"iat\":"
            + NOW.getEpochSecond()
            + ",\"nbf\":"
            + NOW.getEpochSecond()
            + ",\"exp\":"
            + NOW.plusSeconds(600).getEpochSecond()
            + ",\"token_type\":\"service_account\",\"scopes\":[\"a:b.c\",\"d:*\"],"
            + "\"service_name\":\"a\"}";
    String jwt = signed(payload, key);
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer("https://id.example")
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .keyLocator(kid -> Optional.of(key.getPublic()))
            .build();
    VerifiedToken token = verifier.verifyToken(jwt, List.of());

    Map<String, Object> answer = Introspection.active(jwt, token);

    JsonNode json = new ObjectMapper().valueToTree(answer);
    assertEquals("active", answer.keySet().iterator().next());
    assertEquals(true, json.get("active").asBoolean());
    assertEquals("a:b.c d:*", json.get("scope").asText());
    assertEquals("Bearer", json.get("token_type").asText());
    assertEquals("c1", json.get("client_id").asText());
    assertEquals(NOW.plusSeconds(600).getEpochSecond(), json.get("exp").asLong());
    assertEquals(2, json.get("scopes").size());
  }

  @Test
  void whenTheTokenIsDpopBoundThenItsTypeIsDpopAndItsCnfIsShown() throws Exception {
    KeyPair key = rsa();
    String jkt = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";
    String payload =
        "{\"iss\":\"https://id.example\",\"aud\":\"*\",\"sub\":\"c1\",\"client_id\":\"c1\","
            + "\"jti\":\"j1\",\"iat\":"
            + NOW.getEpochSecond()
            + ",\"exp\":"
            + NOW.plusSeconds(600).getEpochSecond()
            + ",\"scopes\":[\"a:b.c\"],\"cnf\":{\"jkt\":\""
            + jkt
            + "\"}}";
    String jwt = signed(payload, key);
    VerifiedToken token =
        BearerVerifier.builder()
            .issuer("https://id.example")
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .keyLocator(kid -> Optional.of(key.getPublic()))
            .build()
            .inspectToken(jwt);

    JsonNode json = new ObjectMapper().valueToTree(Introspection.active(jwt, token));

    // RFC 9449 §6.2: the resource server learns the binding and the type from introspection.
    assertEquals("DPoP", json.get("token_type").asText());
    assertEquals(jkt, json.path("cnf").path("jkt").asText());
  }

  @Test
  void whenInactiveThenExactlyActiveFalseAndNoStore() {
    TokenAnswer inactive = Introspection.inactive();

    assertEquals(200, inactive.status());
    assertEquals("{\"active\":false}", new String(inactive.body(), StandardCharsets.UTF_8));
    assertEquals("no-store", inactive.headers().get("Cache-Control"));
  }

  private static KeyPair rsa() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    return generator.generateKeyPair();
  }

  private static String signed(String payload, KeyPair key) throws Exception {
    String input =
        B64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"k1\"}".getBytes())
            + "."
            + B64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
    Signature rs256 = Signature.getInstance("SHA256withRSA");
    rs256.initSign(key.getPrivate());
    rs256.update(input.getBytes(StandardCharsets.US_ASCII));
    return input + "." + B64.encodeToString(rs256.sign());
  }
}
