package dev.platform.identity.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.jose.Jwk;
import dev.platform.identity.jose.JwsAlgorithm;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;

/**
 * The client's DPoP key (RFC 9449): it signs a new proof for every request, the token request and
 * each API call, with ES256 for an EC P-256 key and RS256 for an RSA key. Checked once, at build
 * time; thread-safe. Never shows the private key.
 */
final class DpopKey {
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final KeyPair keys;
  private final JwsAlgorithm alg;
  private final ObjectNode jwk;
  private final String thumbprint;
  private final SecureRandom random = new SecureRandom();

  /**
   * @throws IllegalStateException when the pair is not an EC P-256 or an RSA (2048 bits or more)
   *     pair, or its two halves do not belong together
   */
  DpopKey(KeyPair keys) {
    this.keys = Objects.requireNonNull(keys, "the DPoP key pair");
    PublicKey key = Objects.requireNonNull(keys.getPublic(), "the DPoP public key");
    Objects.requireNonNull(keys.getPrivate(), "the DPoP private key");
    if (key instanceof ECPublicKey) {
      alg = JwsAlgorithm.ES256;
    } else if (key instanceof RSAPublicKey) {
      alg = JwsAlgorithm.RS256;
    } else {
      throw new IllegalStateException(
          "dpop needs an EC P-256 or an RSA key pair, not " + key.getAlgorithm());
    }
    ClientAssertion.check("dpop", alg, keys.getPrivate());
    try {
      jwk = (ObjectNode) TokenClient.JSON.readTree(Jwk.publicJwk(key));
      thumbprint = Jwk.thumbprint(key);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("dpop cannot describe this public key as a JWK", e);
    }
    byte[] test = "dpop key pair check".getBytes(StandardCharsets.US_ASCII);
    if (!alg.verify(key, test, sign(test))) {
      throw new IllegalStateException("dpop: the private key is not the public key's");
    }
  }

  /** The RFC 7638 thumbprint of the public key: what a bound token's {@code cnf.jkt} names. */
  String thumbprint() {
    return thumbprint;
  }

  /**
   * A new proof for one request (RFC 9449 §4.2): {@code htu} the target without its query and
   * fragment, a random {@code jti}, {@code iat} now, and {@code nonce} and {@code ath} when given.
   *
   * @param nonce the server's latest {@code DPoP-Nonce}, or null
   * @param accessToken the token the request carries (an API call), or null (a token request)
   */
  String proof(String method, URI target, String nonce, String accessToken, Instant now) {
    ObjectNode header =
        TokenClient.JSON.createObjectNode().put("typ", DpopProofs.TYPE).put("alg", alg.name());
    header.set("jwk", jwk);
    ObjectNode claims =
        TokenClient.JSON
            .createObjectNode()
            .put("jti", jti())
            .put("htm", method)
            .put("htu", htu(target))
            .put("iat", now.getEpochSecond());
    if (nonce != null) {
      claims.put("nonce", nonce);
    }
    if (accessToken != null) {
      claims.put("ath", DpopProofs.accessTokenHash(accessToken));
    }
    String input = part(header) + "." + part(claims);
    return input + "." + BASE64URL.encodeToString(sign(input.getBytes(StandardCharsets.US_ASCII)));
  }

  /**
   * RFC 9449 §4.2: the target URI without query and fragment, as the request sends it.
   *
   * @throws IllegalArgumentException when it is not an absolute http or https URI
   */
  static String htu(URI target) {
    String scheme = target.getScheme();
    if (target.isOpaque()
        || target.getRawAuthority() == null
        || !("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme))) {
      throw new IllegalArgumentException(
          "a DPoP proof names an absolute http or https URI, not " + target);
    }
    String path = target.getRawPath() == null ? "" : target.getRawPath();
    return scheme + "://" + target.getRawAuthority() + path;
  }

  private String jti() {
    byte[] bits = new byte[16];
    random.nextBytes(bits);
    return BASE64URL.encodeToString(bits);
  }

  private static String part(ObjectNode json) {
    try {
      return BASE64URL.encodeToString(TokenClient.JSON.writeValueAsBytes(json));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("strings and numbers always serialize", e);
    }
  }

  private byte[] sign(byte[] input) {
    try {
      Signature signer = alg.signer(keys.getPrivate());
      signer.update(input);
      return signer.sign();
    } catch (GeneralSecurityException e) {
      throw new TokenClientException(0, null, "the DPoP proof cannot be signed", e);
    }
  }

  /** Names the algorithm and the thumbprint, never the key. */
  @Override
  public String toString() {
    return "DpopKey[" + alg + ", jkt=" + thumbprint + "]";
  }
}
