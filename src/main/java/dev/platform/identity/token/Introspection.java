package dev.platform.identity.token;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.scope.Scope;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.VerifiedToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /oauth/introspect} (RFC 7662) for an authenticated client holding {@value #SCOPE}. An
 * active token answers {@code {"active":true}} with its claims (SPEC 2.5), {@code scope} added as
 * RFC 7662 §2.2's space-separated string, and {@code token_type} RFC 7662's: {@code Bearer}, the
 * type of RFC 6749 §7.1, in place of SPEC 2.5's claim of that name (always {@code service_account}
 * here; a resource server that needs it reads the token). Anything else answers exactly {@code
 * {"active":false}}: a token that is expired, revoked (its jti, or its account's cut-off), badly
 * signed, of another issuer, not a JWT at all, or of an account that is no longer active, so a
 * caller learns nothing about why (RFC 7662 §2.2).
 *
 * <p>A client without the scope is refused with 403 {@code insufficient_scope} (RFC 6750 §3.1's
 * code, in SPEC 7.1's shape), not told {@code active:false}: a resource server misconfigured so
 * would otherwise refuse every token without anyone learning why.
 */
final class Introspection implements ClientCallServlet.Work {
  static final String SCOPE = "identity:introspect";
  static final String INSUFFICIENT_SCOPE = "insufficient_scope";

  private static final byte[] INACTIVE =
      "{\"active\":false}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  private static final TypeReference<LinkedHashMap<String, Object>> CLAIMS =
      new TypeReference<>() {};

  private final BearerVerifier ownTokens;
  private final Revocations revocations;
  private final ServiceAccounts accounts;
  private final TokenMeters meters;

  Introspection(
      BearerVerifier ownTokens,
      Revocations revocations,
      ServiceAccounts accounts,
      TokenMeters meters) {
    this.ownTokens = ownTokens;
    this.revocations = revocations;
    this.accounts = accounts;
    this.meters = meters;
  }

  @Override
  public TokenAnswer answer(ClientCall call, ServiceAccount client, String remote) {
    if (client.scopes().stream().noneMatch(held -> Scope.covers(held, SCOPE))) {
      throw new OAuthError(
          403, INSUFFICIENT_SCOPE, "Introspection needs a client granted the scope " + SCOPE);
    }
    Optional<VerifiedToken> token =
        Revocation.verified(ownTokens, call.token()).filter(this::isActive);
    meters.introspected(token.isPresent());
    return token
        .map(active -> TokenAnswer.ok(active(call.token(), active)))
        .orElseGet(Introspection::inactive);
  }

  /** Not revoked, and its account still active (a deleted account is not active either). */
  private boolean isActive(VerifiedToken token) {
    if (revocations.isRevoked(
        token.clientId(), token.tokenId().orElse(null), token.issuedAt().orElse(null))) {
      return false;
    }
    return account(token.clientId()).filter(ServiceAccount::isActive).isPresent();
  }

  private Optional<ServiceAccount> account(String clientId) {
    try {
      return accounts.find(UUID.fromString(clientId));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** RFC 7662 §2.2: exactly this, whatever the reason. */
  static TokenAnswer inactive() {
    return TokenAnswer.okJson(INACTIVE);
  }

  /**
   * RFC 7662 §2.2: {@code active} first, then the token's own claims as it carries them (the
   * signature proved them ours, {@code cnf} among them when it is bound), {@code scope} and {@code
   * token_type} as that section defines them: {@code DPoP} for a token bound to a DPoP key (RFC
   * 9449 §6.2), else {@code Bearer}.
   */
  static Map<String, Object> active(String jwt, VerifiedToken token) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("active", true);
    answer.putAll(claims(jwt));
    answer.put("scope", String.join(" ", token.scopes()));
    answer.put("token_type", token.keyThumbprint().isPresent() ? "DPoP" : "Bearer");
    return answer;
  }

  private static Map<String, Object> claims(String jwt) {
    String payload = jwt.split("\\.", -1)[1];
    try {
      return TokenAnswer.JSON.readValue(Base64.getUrlDecoder().decode(payload), CLAIMS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
