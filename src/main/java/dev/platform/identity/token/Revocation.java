package dev.platform.identity.token;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.verify.BearerTokenException;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.VerifiedToken;
import java.util.Optional;

/**
 * {@code POST /oauth/revoke} (RFC 7009) for an authenticated client. A token this service issued
 * (signature by a listed key, this issuer, not expired) to the calling client is revoked by its jti
 * until its exp. A token that is not one (unknown, garbage, expired, already revoked) is a 200 that
 * revokes nothing (RFC 7009 §2.2). A valid token of another client is refused with 400 {@code
 * unauthorized_client} (RFC 7009 §2.1: "the request is refused and the client is informed of the
 * error"; RFC 6749 §5.2's code for a client not allowed the operation) and stays valid: the caller
 * holds the token already, so the answer tells it nothing the public keys do not.
 */
final class Revocation implements ClientCallServlet.Work {
  static final String UNAUTHORIZED_CLIENT = "unauthorized_client";

  private final BearerVerifier ownTokens;
  private final Revocations revocations;
  private final AuditLog audit;

  /**
   * @param ownTokens verifies tokens against this service's own key ring and issuer
   */
  Revocation(BearerVerifier ownTokens, Revocations revocations, AuditLog audit) {
    this.ownTokens = ownTokens;
    this.revocations = revocations;
    this.audit = audit;
  }

  @Override
  public TokenAnswer answer(ClientCall call, ServiceAccount client, String remote) {
    Optional<VerifiedToken> token = verified(ownTokens, call.token());
    if (token.isEmpty() || token.get().tokenId().isEmpty()) {
      return TokenAnswer.okEmpty();
    }
    String caller = client.clientId().toString();
    if (!token.get().clientId().equalsIgnoreCase(caller)) {
      throw new OAuthError(400, UNAUTHORIZED_CLIENT, "The token was not issued to this client");
    }
    String jti = token.get().tokenId().get();
    Revocations.Revoked revoked =
        revocations.revoke(
            jti, caller, token.get().expiresAt(), token.get().issuedAt().orElse(null));
    audit.stored("token.revoke", caller, caller, "success", remote, revoked.details("client"));
    return TokenAnswer.okEmpty();
  }

  /**
   * The token's claims if it is a token of this service that has not expired; else empty. A token
   * bound to a certificate (RFC 8705) counts as any other: its client asks about it, not with it.
   */
  static Optional<VerifiedToken> verified(BearerVerifier ownTokens, String token) {
    try {
      return Optional.of(ownTokens.inspectToken(token));
    } catch (BearerTokenException e) {
      return Optional.empty();
    }
  }
}
