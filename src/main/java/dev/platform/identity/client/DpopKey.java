package dev.platform.identity.client;

import dev.platform.identity.jose.DpopSigner;
import java.net.URI;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Objects;

/**
 * The client's DPoP key (RFC 9449): it signs a new proof for every request, the token request and
 * each API call, with ES256 for an EC P-256 key and RS256 for an RSA key ({@link DpopSigner}, which
 * the service's console signs with too). Checked once, at build time, by the client's rules for its
 * keys; thread-safe. Never shows the private key.
 */
final class DpopKey {
  private final DpopSigner signer;

  /**
   * @throws IllegalStateException when the pair is not an EC P-256 or an RSA (2048 bits or more)
   *     pair, or its two halves do not belong together
   */
  DpopKey(KeyPair keys) {
    Objects.requireNonNull(keys, "the DPoP key pair");
    PublicKey key = Objects.requireNonNull(keys.getPublic(), "the DPoP public key");
    Objects.requireNonNull(keys.getPrivate(), "the DPoP private key");
    ClientAssertion.check("dpop", DpopSigner.algorithm(key), keys.getPrivate());
    this.signer = DpopSigner.requireMatchingPair(keys, new SecureRandom());
  }

  /** The RFC 7638 thumbprint of the public key: what a bound token's {@code cnf.jkt} names. */
  String thumbprint() {
    return signer.thumbprint();
  }

  /**
   * A new proof for one request ({@link DpopSigner#proof}).
   *
   * @param nonce the server's latest {@code DPoP-Nonce}, or null
   * @param accessToken the token the request carries (an API call), or null (a token request)
   */
  String proof(String method, URI target, String nonce, String accessToken, Instant now) {
    try {
      return signer.proof(method, target, nonce, accessToken, now);
    } catch (IllegalStateException e) {
      throw new TokenClientException(0, null, e.getMessage(), e);
    }
  }

  /** Names the algorithm and the thumbprint, never the key. */
  @Override
  public String toString() {
    return "DpopKey[" + signer.algorithm() + ", jkt=" + signer.thumbprint() + "]";
  }
}
