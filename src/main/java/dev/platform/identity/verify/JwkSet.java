package dev.platform.identity.verify;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.jose.Jwk;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The keys of a JWK set (RFC 7517 §5) this verifier can use: RSA signature keys for RS256. */
final class JwkSet {
  /** The most entries read from one set, usable or not. */
  private static final int MAX_ENTRIES = 1000;

  private JwkSet() {}

  private record Entry(String kid, PublicKey key) {}

  /**
   * The usable keys by {@code kid}. An entry that is not usable (another {@code kty}, {@code use}
   * or {@code alg}, no {@code kid}, an {@code n} or {@code e} that is not a valid RSA key) is
   * skipped ({@link dev.platform.identity.jose.JwkSet}), and so are the keys of a {@code kid} that
   * names different ones.
   *
   * @throws IOException when the body is no key set or holds no usable key (a set that would verify
   *     nothing is taken for a broken answer, not for the issuer's keys)
   */
  static Map<String, PublicKey> usableKeys(byte[] body) throws IOException {
    Map<String, PublicKey> found = new HashMap<>();
    Set<String> repeated = new HashSet<>();
    for (Entry entry :
        dev.platform.identity.jose.JwkSet.read(body, MAX_ENTRIES, JwkSet::rs256Key).entries()) {
      PublicKey before = found.putIfAbsent(entry.kid(), entry.key());
      if (before != null && !before.equals(entry.key())) {
        repeated.add(entry.kid());
      }
    }
    // Two different keys under one kid: which one the issuer signs with is unknown, so neither is
    // trusted
    // (the last one read would otherwise win, whoever put it there).
    found.keySet().removeAll(repeated);
    if (found.isEmpty()) {
      throw new IOException("the key set has no usable RS256 signature key");
    }
    return Map.copyOf(found);
  }

  /** SPEC 2.3: the keys are RSA, for signatures, RS256; {@code use} and {@code alg} optional. */
  private static Entry rs256Key(JsonNode jwk) {
    boolean usable =
        !jwk.path("kid").asText("").isEmpty()
            && jwk.path("kty").asText().equals("RSA")
            && jwk.path("use").asText("sig").equals("sig")
            && jwk.path("alg").asText(BearerVerifier.ALGORITHM).equals(BearerVerifier.ALGORITHM);
    if (!usable) {
      throw new IllegalArgumentException("not an RS256 signature key with a kid");
    }
    try {
      BigInteger modulus = new BigInteger(1, Jwk.base64url(jwk.path("n").asText()));
      BigInteger exponent = new BigInteger(1, Jwk.base64url(jwk.path("e").asText()));
      return new Entry(jwk.path("kid").asText(), Jwk.rsa(modulus, exponent));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not a valid RSA key", e);
    }
  }
}
