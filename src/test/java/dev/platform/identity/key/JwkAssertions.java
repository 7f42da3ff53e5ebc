package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** The shape of a published key (SPEC 4.2), checked the same way in unit tests and ITs. */
public final class JwkAssertions {
  private JwkAssertions() {}

  /**
   * Exactly the public members of an RS256 signing key, in order; {@code n} is a 2048-bit modulus
   * in minimal base64url (no padding, no sign octet); {@code kid} is base64url.
   */
  public static void assertPublicRsaSigningKey(JsonNode jwk) {
    List<String> members = new ArrayList<>();
    jwk.fieldNames().forEachRemaining(members::add);
    assertEquals(List.of("kid", "kty", "use", "alg", "n", "e"), members);
    assertEquals("RSA", jwk.get("kty").asText());
    assertEquals("sig", jwk.get("use").asText());
    assertEquals("RS256", jwk.get("alg").asText());
    assertEquals("AQAB", jwk.get("e").asText());
    String n = jwk.get("n").asText();
    assertTrue(n.matches("[A-Za-z0-9_-]+"), "base64url without padding");
    byte[] modulus = Base64.getUrlDecoder().decode(n);
    assertEquals(256, modulus.length, "a 2048-bit modulus in the fewest octets");
    assertNotEquals(0, modulus[0]);
    assertTrue(jwk.get("kid").asText().matches("[A-Za-z0-9_-]+"), jwk.get("kid").asText());
  }
}
