package dev.platform.identity.token;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.jose.DpopNonces;
import dev.platform.identity.jose.DpopProof;
import dev.platform.identity.jose.DpopProofException;
import dev.platform.identity.jose.DpopProofs;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;

/**
 * DPoP at the token endpoint (RFC 9449 §5): the proof a token request carries, checked after its
 * client authenticated, gives the key its token is bound to ({@code cnf.jkt}). The proof's {@code
 * htu} must be the token endpoint's URL as discovery publishes it ({@code {issuer}/oauth/token}),
 * never one read from the request's {@code Host}, which a client chooses. Its {@code jti} is taken
 * once on every node ({@link UsedJtis}, table {@code dpop_proof_jti}): one INSERT for a request
 * that carries a proof, none for one that does not. With server nonces (RFC 9449 §8) the proof must
 * carry a nonce of {@link DpopNonces}, which every node gives out and takes alike.
 */
final class DpopBinding {
  private final DpopProofs proofs;
  private final URI tokenEndpoint;
  private final UsedJtis used;
  private final Optional<DpopNonces> nonces;
  private final Clock clock;

  /**
   * @param tokenEndpoint the URL a proof's {@code htu} must name
   * @param used where each proof's {@code jti} is taken once
   * @param nonces the server nonces a proof must carry, or empty when none is asked for
   */
  DpopBinding(
      DpopProofs proofs,
      URI tokenEndpoint,
      UsedJtis used,
      Optional<DpopNonces> nonces,
      Clock clock) {
    this.proofs = proofs;
    this.tokenEndpoint = tokenEndpoint;
    this.used = used;
    this.nonces = nonces;
    this.clock = clock;
  }

  /**
   * The JWK thumbprint {@code request}'s token is bound to, from the proof it carries; empty when
   * it carries none and {@code account} does not require one.
   *
   * @throws OAuthError {@code invalid_dpop_proof} when the proof fails a check, was used before or
   *     is missing though the account requires one; {@code use_dpop_nonce} when it lacks the
   *     current server nonce
   */
  Optional<String> keyOf(TokenRequest request, ServiceAccount account) {
    if (!request.sentDpop()) {
      if (account.requiresDpop()) {
        throw OAuthError.invalidDpopProof(
            "this client's tokens are DPoP-bound (dpop_bound_access_tokens): send a DPoP proof");
      }
      return Optional.empty();
    }
    DpopProof proof = checked(request);
    String key = proof.thumbprint() + " " + proof.jti();
    if (!used.claim(account.clientId(), key, proof.usableUntil(), clock.instant())) {
      throw OAuthError.invalidDpopProof(
          "the DPoP proof was used before: make a new one, with a new jti, for each request");
    }
    return Optional.of(proof.thumbprint());
  }

  /** The nonce every answer to a request that carried a proof gives, when nonces are on. */
  Optional<String> nonce() {
    return nonces.map(DpopNonces::current);
  }

  private DpopProof checked(TokenRequest request) {
    try {
      return nonces.isPresent()
          ? proofs.check(request.dpop(), "POST", tokenEndpoint, Optional.empty(), nonces.get())
          : proofs.check(request.dpop(), "POST", tokenEndpoint, Optional.empty(), Optional.empty());
    } catch (DpopProofException e) {
      throw e.reason() == DpopProofException.Reason.NONCE
          ? OAuthError.useDpopNonce(e.getMessage())
          : OAuthError.invalidDpopProof(e.getMessage());
    }
  }
}
