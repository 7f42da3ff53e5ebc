package dev.platform.identity.console;

import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.jose.DpopSigner;
import dev.platform.identity.ratelimit.RateLimitFilter;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.TokenAnswer;
import dev.platform.identity.token.TokenServlet;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.VerifiedToken;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The console's sign-in as a DPoP client (RFC 9449): every session's token is asked for with a
 * proof by the session's own key, so it is bound to that key whether or not the account requires
 * it, and is worth nothing without the sealed cookie that keeps the key. The request goes to the
 * token endpoint in process ({@link RateLimitFilter#answer(String, String, String, String)}), with
 * its rate limit, audit lines and counters; the proof names the token endpoint as discovery
 * publishes it, as every client's must.
 *
 * <p>With server nonces on, a proof without the current nonce is answered {@code use_dpop_nonce}
 * with {@code DPoP-Nonce}, and the sign-in asks again once with it, as any DPoP client does; the
 * latest nonce any answer gave goes into the next sign-in's first proof, so that one refusal is
 * paid only when the nonce has moved on.
 */
final class SignIn {
  private static final String BODY = "grant_type=client_credentials";

  private final RateLimitFilter tokenEndpoint;
  private final URI tokenUrl;
  private final BearerVerifier verifier;
  private final SessionProofs proofs;
  private final SecureRandom random;
  private final AtomicReference<String> nonce = new AtomicReference<>();

  /**
   * @param tokenUrl the token endpoint's published URL, which its proofs name
   * @param verifier verifies the token the sign-in got, as the administration API will
   */
  SignIn(
      RateLimitFilter tokenEndpoint,
      URI tokenUrl,
      BearerVerifier verifier,
      SessionProofs proofs,
      SecureRandom random) {
    this.tokenEndpoint = tokenEndpoint;
    this.tokenUrl = tokenUrl;
    this.verifier = verifier;
    this.proofs = proofs;
    this.random = random;
  }

  /**
   * The token endpoint's answer to {@code authorization} (HTTP Basic) from {@code address}, its
   * token bound to {@code key}.
   */
  TokenAnswer token(String authorization, SessionKey key, String address, Instant now) {
    DpopSigner signer = key.signer(random);
    TokenAnswer answer = ask(authorization, signer, nonce.get(), address, now);
    String given = answer.headers().get(TokenServlet.DPOP_NONCE);
    if (given != null && OAuthError.USE_DPOP_NONCE.equals(ConsoleResource.field(answer, "error"))) {
      answer = ask(authorization, signer, given, address, now);
    }
    return answer;
  }

  /**
   * The claims of {@code token}, which the sign-in just got, verified as the administration API
   * will verify it: as {@code DPoP}, with a proof by {@code key} for {@code request}.
   *
   * @throws dev.platform.identity.verify.BearerTokenException when it does not verify
   */
  VerifiedToken verified(ContainerRequestContext request, SessionKey key, String token) {
    return verifier.verify(
        SessionProofs.authorization(token),
        proofs.of(request, key, token),
        AdminAuth.certificate(request),
        List.of());
  }

  private TokenAnswer ask(
      String authorization, DpopSigner signer, String withNonce, String address, Instant now) {
    String proof = signer.proof("POST", tokenUrl, withNonce, null, now);
    TokenAnswer answer = tokenEndpoint.answer(BODY, authorization, proof, address);
    String given = answer.headers().get(TokenServlet.DPOP_NONCE);
    if (given != null) {
      nonce.set(given);
    }
    return answer;
  }
}
