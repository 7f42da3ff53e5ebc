package dev.platform.identity.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The keys of a JWK set (RFC 7517 §5) this verifier can use: RSA signature keys for RS256. */
final class JwkSet {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JwkSet() {}

  /**
   * The usable keys by {@code kid}. An entry that is not usable (another {@code kty}, {@code use}
   * or {@code alg}, no {@code kid}, an {@code n} or {@code e} that is not a valid RSA key) is
   * skipped: RFC 7517 §5 lets a reader ignore keys it does not understand, and one odd entry must
   * not cost the others.
   *
   * @throws IOException when the body is no key set or holds no usable key (a set that would verify
   *     nothing is taken for a broken answer, not for the issuer's keys)
   */
  static Map<String, PublicKey> usableKeys(byte[] body) throws IOException {
    JsonNode root = JSON.readTree(body);
    JsonNode keys = root == null ? null : root.path("keys");
    if (keys == null || !keys.isArray()) {
      throw new IOException("the key set has no 'keys' array");
    }
    Map<String, PublicKey> found = new HashMap<>();
    for (JsonNode jwk : keys) {
      rs256Key(jwk).ifPresent(key -> found.put(jwk.path("kid").asText(), key));
    }
    if (found.isEmpty()) {
      throw new IOException("the key set has no usable RS256 signature key");
    }
    return Map.copyOf(found);
  }

  /** SPEC 2.3: the keys are RSA, for signatures, RS256; {@code use} and {@code alg} optional. */
  private static Optional<PublicKey> rs256Key(JsonNode jwk) {
    boolean usable =
        !jwk.path("kid").asText("").isEmpty()
            && jwk.path("kty").asText().equals("RSA")
            && jwk.path("use").asText("sig").equals("sig")
            && jwk.path("alg").asText(BearerVerifier.ALGORITHM).equals(BearerVerifier.ALGORITHM);
    if (!usable) {
      return Optional.empty();
    }
    try {
      Base64.Decoder base64url = Base64.getUrlDecoder();
      BigInteger modulus = new BigInteger(1, base64url.decode(jwk.path("n").asText()));
      BigInteger exponent = new BigInteger(1, base64url.decode(jwk.path("e").asText()));
      return Optional.of(
          KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, exponent)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
