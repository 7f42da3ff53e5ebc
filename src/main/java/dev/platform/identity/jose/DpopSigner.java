package dev.platform.identity.jose;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * Makes DPoP proofs (RFC 9449 §4.2) with one key pair and the JDK alone: ES256 for an EC P-256
 * pair, RS256 for an RSA pair. What {@code client.TokenClient} and the service's console sign with,
 * and what {@link DpopProofs} checks. The pair is taken as given: a caller that takes a pair from
 * outside checks it once with {@link #requireMatchingPair} ({@code TokenClient} does, when it is
 * built), where the console's own pair, made at sign-in and sealed in its cookie, is not checked
 * again on every request. Thread-safe. Never shows the private key.
 */
public final class DpopSigner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final KeyPair keys;
  private final JwsAlgorithm alg;
  private final ObjectNode jwk;
  private final String thumbprint;
  private final SecureRandom random;

  /**
   * @param keys an EC P-256 pair or an RSA pair, whose two halves belong together
   * @param random where each proof's {@code jti} comes from
   * @throws IllegalStateException when the pair is of another type or its public key cannot be a
   *     JWK
   */
  public DpopSigner(KeyPair keys, SecureRandom random) {
    this.keys = Objects.requireNonNull(keys, "the DPoP key pair");
    this.random = Objects.requireNonNull(random, "random");
    PublicKey key = Objects.requireNonNull(keys.getPublic(), "the DPoP public key");
    Objects.requireNonNull(keys.getPrivate(), "the DPoP private key");
    this.alg = algorithm(key);
    try {
      jwk = (ObjectNode) JSON.readTree(Jwk.publicJwk(key));
      thumbprint = Jwk.thumbprint(key);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("dpop cannot describe this public key as a JWK", e);
    }
  }

  /**
   * A signer of {@code keys} once its private key is shown to be its public key's: a test signature
   * by the one, verified by the other.
   *
   * @throws IllegalStateException as the constructor does, and when the halves do not belong
   *     together
   */
  public static DpopSigner requireMatchingPair(KeyPair keys, SecureRandom random) {
    DpopSigner signer = new DpopSigner(keys, random);
    byte[] test = "dpop key pair check".getBytes(StandardCharsets.US_ASCII);
    if (!signer.alg.verify(keys.getPublic(), test, signer.sign(test))) {
      throw new IllegalStateException("dpop: the private key is not the public key's");
    }
    return signer;
  }

  /**
   * The algorithm a DPoP proof by {@code key} is signed with.
   *
   * @throws IllegalStateException when it is neither EC nor RSA
   */
  public static JwsAlgorithm algorithm(PublicKey key) {
    if (key instanceof ECPublicKey) {
      return JwsAlgorithm.ES256;
    }
    if (key instanceof RSAPublicKey) {
      return JwsAlgorithm.RS256;
    }
    throw new IllegalStateException(
        "dpop needs an EC P-256 or an RSA key pair, not " + key.getAlgorithm());
  }

  /** The algorithm its proofs are signed with. */
  public JwsAlgorithm algorithm() {
    return alg;
  }

  /** The RFC 7638 thumbprint of the public key: what a bound token's {@code cnf.jkt} names. */
  public String thumbprint() {
    return thumbprint;
  }

  /**
   * A new proof for one request: {@code htu} the target without its query and fragment, a random
   * {@code jti} of 128 bits, {@code iat} now, and {@code nonce} and {@code ath} when given.
   *
   * @param method the request's method, such as {@code POST}
   * @param target the request's URI as the server that checks the proof publishes it
   * @param nonce the server's latest {@code DPoP-Nonce}, or null
   * @param accessToken the token the request carries (an API call), or null (a token request)
   * @throws IllegalArgumentException when {@code target} is not an absolute http or https URI
   * @throws IllegalStateException when the key cannot sign
   */
  public String proof(String method, URI target, String nonce, String accessToken, Instant now) {
    ObjectNode header = JSON.createObjectNode().put("typ", DpopProofs.TYPE).put("alg", alg.name());
    header.set("jwk", jwk);
    ObjectNode claims =
        JSON.createObjectNode()
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
  public static String htu(URI target) {
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
      return BASE64URL.encodeToString(JSON.writeValueAsBytes(json));
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
      throw new IllegalStateException("the DPoP proof cannot be signed", e);
    }
  }

  /** Names the algorithm and the thumbprint, never the key. */
  @Override
  public String toString() {
    return "DpopSigner[" + alg + ", jkt=" + thumbprint + "]";
  }
}
