package dev.platform.identity.token;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.InvalidScopeException;
import dev.platform.identity.scope.ScopeCatalog;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code POST /oauth/token} (SPEC 4.1): parse, authenticate, grant, sign. A read path: one
 * primary-key read of the account, one digest compare, one RSA signature (DESIGN decision 2).
 *
 * <p>A plain servlet rather than a Jersey resource: the endpoint takes one form and answers one
 * JSON object, and Jersey's routing, injection and message-body lookup cost a sixth as much as the
 * RSA signature itself (docs/performance.md). Every other path but the key list stays with Jersey.
 */
public final class TokenServlet extends HttpServlet {
  /** RFC 9449 §8: the response header that gives the nonce a DPoP proof must carry. */
  public static final String DPOP_NONCE = "DPoP-Nonce";

  private final transient ClientAuthenticator clients;
  private final transient ScopeCatalog scopes;
  private final transient TokenIssuer issuer;
  private final transient DpopBinding dpop;
  private final transient AuditLog audit;
  private final transient TokenMeters meters;

  /**
   * @param meters where requests are counted and timed
   */
  TokenServlet(
      ClientAuthenticator clients,
      ScopeCatalog scopes,
      TokenIssuer issuer,
      DpopBinding dpop,
      AuditLog audit,
      TokenMeters meters) {
    this.clients = clients;
    this.scopes = scopes;
    this.issuer = issuer;
    this.dpop = dpop;
    this.audit = audit;
    this.meters = meters;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    long start = System.nanoTime();
    withNonce(request, answer(request)).writeTo(response);
    meters.answered(start);
  }

  /**
   * RFC 9449 §8: with server nonces on, every answer to a request that sent a DPoP proof, a token
   * or a refusal, gives the nonce to put in the next one.
   */
  private TokenAnswer withNonce(HttpServletRequest request, TokenAnswer answer) {
    return request.getHeader(TokenRequest.DPOP_HEADER) == null ? answer : withNonce(answer);
  }

  /** {@code answer} with the current nonce, when nonces are on. */
  private TokenAnswer withNonce(TokenAnswer answer) {
    return dpop.nonce().map(nonce -> answer.withHeader(DPOP_NONCE, nonce)).orElse(answer);
  }

  private TokenAnswer answer(HttpServletRequest request) {
    if (!"POST".equals(request.getMethod())) {
      meters.refused(OAuthError.INVALID_REQUEST);
      return TokenAnswer.onlyPost();
    }
    try {
      Object budget = request.getAttribute(FailureBudget.ATTRIBUTE);
      return answer(
          parse(request),
          ClientAddress.of(request),
          budget instanceof FailureBudget spent ? spent : FailureBudget.NONE);
    } catch (OAuthError e) {
      meters.refused(e.error());
      return TokenAnswer.of(e);
    } catch (RuntimeException e) {
      meters.failed();
      return TokenAnswer.ofFailure(e);
    }
  }

  /**
   * How the request is parsed: as the rate limit parsed it already ({@link
   * TokenRequest#ATTRIBUTE}), or from its body and headers; either way when {@link #issue} asks, so
   * a refusal is audited.
   *
   * @throws OAuthError when the body is too large or cannot be read
   */
  private static Supplier<TokenRequest> parse(HttpServletRequest request) {
    if (request.getAttribute(TokenRequest.ATTRIBUTE) instanceof TokenRequest parsed) {
      return () -> parsed;
    }
    String body = TokenBody.read(request).text();
    return () -> TokenRequest.read(request, body);
  }

  TokenMeters meters() {
    return meters;
  }

  /** {@link #issue} as an answer, counted by outcome; spends no failure budget. */
  public TokenAnswer answer(
      String body, String contentType, String authorization, String query, String remote) {
    return answer(body, contentType, authorization, query, remote, FailureBudget.NONE);
  }

  /**
   * {@link #issue} as an answer, counted by outcome; also the console's login. A refusal spends
   * {@code budget}, which may turn it into a 429.
   */
  public TokenAnswer answer(
      String body,
      String contentType,
      String authorization,
      String query,
      String remote,
      FailureBudget budget) {
    return answer(() -> TokenRequest.from(body, contentType, authorization, query), remote, budget);
  }

  /**
   * {@link #answer(Supplier, String, FailureBudget)} for a request made in process (the console's
   * sign-in) whose {@code DPoP} headers would be {@code dpop}: checked as over HTTP, and, with
   * server nonces on, an answer to a request that sent a proof gives the nonce in {@link
   * #DPOP_NONCE} as over HTTP.
   *
   * @param dpop the proofs the request carries, each as a {@code DPoP} header would; may be empty
   */
  public TokenAnswer answer(
      Supplier<TokenRequest> parse, List<String> dpop, String remote, FailureBudget budget) {
    TokenAnswer answer = answer(() -> parse.get().withDpop(dpop), remote, budget);
    return dpop.isEmpty() ? answer : withNonce(answer);
  }

  /** {@link #answer}, for a request parsed by {@code parse}. */
  public TokenAnswer answer(Supplier<TokenRequest> parse, String remote, FailureBudget budget) {
    try {
      TokenAnswer issued = TokenAnswer.of(issue(parse, remote, budget));
      meters.issued();
      return issued;
    } catch (OAuthError e) {
      meters.refused(e.error());
      return TokenAnswer.of(e);
    } catch (RuntimeException e) {
      meters.failed();
      return TokenAnswer.ofFailure(e);
    }
  }

  /**
   * The token path without HTTP: parse, authenticate, grant, sign; audited either way. The line of
   * an issued token says which secret was used, a refusal for an expired secret says so.
   */
  TokenResponseBody issue(
      String body, String contentType, String authorization, String query, String remote) {
    return issue(body, contentType, authorization, query, remote, FailureBudget.NONE);
  }

  /**
   * {@link #issue}, a refusal spending {@code budget}: a refusal after the client authenticated
   * spends the client's own, and is a 429 once that is spent. Refusals are audited counted by the
   * minute, never a line each.
   */
  TokenResponseBody issue(
      String body,
      String contentType,
      String authorization,
      String query,
      String remote,
      FailureBudget budget) {
    return issue(() -> TokenRequest.from(body, contentType, authorization, query), remote, budget);
  }

  private TokenResponseBody issue(
      Supplier<TokenRequest> parse, String remote, FailureBudget budget) {
    String clientId = null;
    ClientAuthentication method = null;
    boolean authenticated = false;
    try {
      TokenRequest request = parse.get();
      clientId = request.clientId();
      method = request.authentication();
      ClientAuthenticator.Authenticated client = authenticate(request);
      authenticated = true;
      client = client.forToken(request);
      ServiceAccount account = client.account();
      GrantedScopes granted = grant(account, request);
      Optional<String> dpopKey = dpop.keyOf(request, account);
      TokenResponseBody token =
          TokenResponseBody.from(
              issuer.issue(
                  account,
                  granted,
                  new AccessTokenClaims.Binding(client.certificateThumbprint(), dpopKey)));
      // The method the account proved itself by: a certificate request's is known only now.
      method = client.method();
      Map<String, String> details = new LinkedHashMap<>();
      details.put("method", method.wireName());
      if (method == ClientAuthentication.CLIENT_SECRET_BASIC
          || method == ClientAuthentication.CLIENT_SECRET_POST) {
        details.put("secret", client.secret().name().toLowerCase(Locale.ROOT));
      }
      client.pepperMovedFrom().ifPresent(id -> details.put("pepper_moved_from", id));
      // Which certificate the token is bound to: a thumbprint, public, and what a verifier checks.
      client.certificateThumbprint().ifPresent(thumbprint -> details.put("x5t#S256", thumbprint));
      // Which DPoP key, by its JWK thumbprint: as public as the certificate's.
      dpopKey.ifPresent(thumbprint -> details.put("jkt", thumbprint));
      audit.record("token.issue", clientId, token.scope(), "success", remote, details);
      client.expiryNotice().ifPresent(at -> auditExpiring(request.clientId(), at, remote));
      return token;
    } catch (OAuthError e) {
      OAuthError answered = budget.spend(e, authenticated);
      audit.refused("token.refuse", clientId, answered.error(), remote, reason(answered, method));
      throw answered;
    }
  }

  /** Counted by method and result. */
  private ClientAuthenticator.Authenticated authenticate(TokenRequest request) {
    try {
      ClientAuthenticator.Authenticated client = clients.authenticate(request);
      meters.authenticated(client.method(), true);
      return client;
    } catch (OAuthError e) {
      meters.authenticated(request.authentication(), false);
      throw e;
    }
  }

  /** A secret that expires within 14 days, said once a day per account and node. */
  private void auditExpiring(String clientId, Instant expiresAt, String remote) {
    audit.record(
        "account.secret.expiring",
        clientId,
        clientId,
        "warning",
        remote,
        Map.of("expires_at", expiresAt.toString()));
  }

  /**
   * The refusal's audit details: the method, when the request was read that far; why an expired
   * secret or an assertion was refused, which a client's developer asks the operator about.
   */
  private static Map<String, String> reason(OAuthError e, ClientAuthentication method) {
    Map<String, String> details = new LinkedHashMap<>();
    if (method != null) {
      details.put("method", method.wireName());
    }
    if (ClientAuthenticator.EXPIRED.equals(e.description())) {
      details.put("reason", "secret_expired");
    } else if (method == ClientAuthentication.PRIVATE_KEY_JWT
        && OAuthError.INVALID_CLIENT.equals(e.error())
        && e.description() != null) {
      // Only invalid_client: those texts are the service's own; invalid_scope's name the scope.
      details.put("reason", e.description());
    } else if (OAuthError.INVALID_DPOP_PROOF.equals(e.error())
        || OAuthError.USE_DPOP_NONCE.equals(e.error())) {
      // Which check the proof failed, in the service's own words, for the client's developer.
      details.put("reason", e.description());
    }
    return details;
  }

  private GrantedScopes grant(ServiceAccount account, TokenRequest request) {
    try {
      return scopes.grant(account.scopes(), request.scope());
    } catch (InvalidScopeException e) {
      throw OAuthError.invalidScope(e.getMessage());
    }
  }
}
