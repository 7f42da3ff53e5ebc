package dev.platform.identity.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.identity.jose.Jwk;
import dev.platform.identity.jose.JwsAlgorithm;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;

/**
 * The private_key_jwt client authentication (RFC 7523 §2.2, OpenID Connect Core §9): a JWT the
 * account signs with its private key, made fresh for every token request so a captured one is
 * useless a minute later. Checked against its algorithm once, at build time; thread-safe.
 */
final class ClientAssertion {
  /** RFC 7523 §2.2: the {@code client_assertion_type} of a JWT bearer assertion. */
  static final String TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

  /** Long enough for clock skew and a slow network, short enough not to be worth replaying. */
  static final long LIFETIME_SECONDS = 60;

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final PrivateKey key;
  private final String kid;
  private final JwsAlgorithm alg;
  private final SecureRandom random = new SecureRandom();

  /**
   * @throws IllegalStateException when {@code alg} is not RS256, PS256 or ES256, or the key does
   *     not fit it
   */
  ClientAssertion(PrivateKey key, String kid, String alg) {
    this.key = Objects.requireNonNull(key, "the private key");
    this.kid = kid;
    this.alg =
        JwsAlgorithm.named(Objects.requireNonNull(alg, "the algorithm"))
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "privateKeyJwt algorithm " + alg + " is not one of RS256, PS256, ES256"));
    check("privateKeyJwt", this.alg, key);
  }

  /**
   * A signed assertion for one request: RFC 7523 §3, iss and sub are the client_id, aud the
   * service's issuer as one string (draft-ietf-oauth-rfc7523bis), jti 128 random bits so the
   * service can refuse a replay.
   */
  String sign(String clientId, URI audience, Instant now) {
    ObjectNode header =
        TokenClient.JSON.createObjectNode().put("alg", alg.name()).put("typ", "JWT");
    if (kid != null) {
      header.put("kid", kid);
    }
    long iat = now.getEpochSecond();
    ObjectNode claims =
        TokenClient.JSON
            .createObjectNode()
            .put("iss", clientId)
            .put("sub", clientId)
            .put("aud", audience.toString())
            .put("iat", iat)
            .put("exp", iat + LIFETIME_SECONDS)
            .put("jti", jti());
    String input = part(header) + "." + part(claims);
    return input + "." + BASE64URL.encodeToString(signature(input));
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

  private byte[] signature(String input) {
    try {
      Signature signer = alg.signer(key);
      signer.update(input.getBytes(StandardCharsets.US_ASCII));
      return signer.sign();
    } catch (GeneralSecurityException e) {
      throw new TokenClientException(0, null, "the client assertion cannot be signed", e);
    }
  }

  /** Names the algorithm and the kid, never the key. */
  @Override
  public String toString() {
    return "ClientAssertion[" + alg + ", kid=" + kid + "]";
  }

  /**
   * Refuses a key of the wrong type or size for {@code alg}, and one the JCA cannot sign with,
   * naming the builder's {@code setting} ({@code privateKeyJwt}, {@code dpop}).
   */
  static void check(String setting, JwsAlgorithm alg, PrivateKey key) {
    String problem = alg.isEcdsa() ? ecProblem(key) : rsaProblem(key);
    if (problem != null) {
      throw new IllegalStateException(setting + " " + alg + " " + problem);
    }
    try {
      alg.signer(key);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          setting + " " + alg + " cannot sign with this key: " + e.getMessage(), e);
    }
  }

  private static String rsaProblem(PrivateKey key) {
    if (!"RSA".equals(key.getAlgorithm()) && !"RSASSA-PSS".equals(key.getAlgorithm())) {
      return "needs an RSA key, not " + key.getAlgorithm();
    }
    // RFC 7518 §3.3 and §3.5: 2048 bits or more. A key held in a token may not show its size.
    if (key instanceof RSAKey rsa && rsa.getModulus().bitLength() < 2048) {
      return "needs an RSA key of 2048 bits or more, not " + rsa.getModulus().bitLength();
    }
    return null;
  }

  private static String ecProblem(PrivateKey key) {
    if (!(key instanceof ECPrivateKey ec)) {
      return "needs an EC P-256 key, not " + key.getAlgorithm();
    }
    return Jwk.isP256(ec.getParams()) ? null : "needs an EC key on P-256, not another curve";
  }
}
