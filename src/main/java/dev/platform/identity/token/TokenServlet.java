package dev.platform.identity.token;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.http.Incident;
import dev.platform.identity.scope.GrantedScopes;
import dev.platform.identity.scope.InvalidScopeException;
import dev.platform.identity.scope.ScopeCatalog;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code POST /oauth/token} (SPEC 4.1): parse, authenticate, grant, sign. A read path: one
 * primary-key read of the account, one digest compare, one RSA signature (DESIGN decision 2).
 *
 * <p>A plain servlet rather than a Jersey resource: the endpoint takes one form and answers one
 * JSON object, and Jersey's routing, injection and message-body lookup cost a sixth as much as the
 * RSA signature itself (docs/performance.md). Every other path but the key list stays with Jersey.
 */
public final class TokenServlet extends HttpServlet {
  private final transient ClientAuthenticator clients;
  private final transient ScopeCatalog scopes;
  private final transient TokenIssuer issuer;
  private final transient AuditLog audit;
  private final transient TokenMeters meters;

  public TokenServlet(
      ClientAuthenticator clients, ScopeCatalog scopes, TokenIssuer issuer, AuditLog audit) {
    this(clients, scopes, issuer, audit, TokenMeters.none());
  }

  /**
   * @param meters where requests are counted and timed (issue 20)
   */
  public TokenServlet(
      ClientAuthenticator clients,
      ScopeCatalog scopes,
      TokenIssuer issuer,
      AuditLog audit,
      TokenMeters meters) {
    this.clients = clients;
    this.scopes = scopes;
    this.issuer = issuer;
    this.audit = audit;
    this.meters = meters;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    long start = System.nanoTime();
    answer(request).writeTo(response);
    meters.answered(start);
  }

  private TokenAnswer answer(HttpServletRequest request) {
    if (!"POST".equals(request.getMethod())) {
      meters.refused(OAuthError.INVALID_REQUEST);
      return TokenAnswer.onlyPost();
    }
    try {
      return answer(
          TokenBody.read(request).text(),
          request.getContentType(),
          request.getHeader("Authorization"),
          request.getQueryString(),
          ClientAddress.of(request));
    } catch (OAuthError e) {
      meters.refused(e.error());
      return TokenAnswer.of(e);
    } catch (RuntimeException e) {
      meters.failed();
      return TokenAnswer.of(Incident.logged(e));
    }
  }

  TokenMeters meters() {
    return meters;
  }

  /** {@link #issue} as an answer, counted by outcome (issue 20); also the console's login. */
  public TokenAnswer answer(
      String body, String contentType, String authorization, String query, String remote) {
    try {
      TokenAnswer issued = TokenAnswer.of(issue(body, contentType, authorization, query, remote));
      meters.issued();
      return issued;
    } catch (OAuthError e) {
      meters.refused(e.error());
      return TokenAnswer.of(e);
    } catch (RuntimeException e) {
      meters.failed();
      return TokenAnswer.of(Incident.logged(e));
    }
  }

  /**
   * The token path without HTTP: parse, authenticate, grant, sign; audited either way. The line of
   * an issued token says which secret was used (issue 19), a refusal for an expired secret says so.
   */
  TokenResponseBody issue(
      String body, String contentType, String authorization, String query, String remote) {
    String clientId = null;
    ClientAuthentication method = null;
    try {
      TokenRequest request = TokenRequest.from(body, contentType, authorization, query);
      clientId = request.clientId();
      method = request.authentication();
      ClientAuthenticator.Authenticated client = authenticate(request);
      ServiceAccount account = client.account();
      TokenResponseBody token =
          TokenResponseBody.from(issuer.issue(account, grant(account, request)));
      Map<String, String> details = new LinkedHashMap<>();
      details.put("method", method.wireName());
      if (method != ClientAuthentication.PRIVATE_KEY_JWT) {
        details.put("secret", client.secret().name().toLowerCase(Locale.ROOT));
      }
      client.pepperMovedFrom().ifPresent(id -> details.put("pepper_moved_from", id));
      audit.record("token.issue", clientId, token.scope(), "success", remote, details);
      client.expiryNotice().ifPresent(at -> auditExpiring(request.clientId(), at, remote));
      return token;
    } catch (OAuthError e) {
      audit.record("token.refuse", clientId, null, e.error(), remote, reason(e, method));
      throw e;
    }
  }

  /** Counted by method and result (issue 22). */
  private ClientAuthenticator.Authenticated authenticate(TokenRequest request) {
    try {
      ClientAuthenticator.Authenticated client = clients.authenticate(request);
      meters.authenticated(request.authentication(), true);
      return client;
    } catch (OAuthError e) {
      meters.authenticated(request.authentication(), false);
      throw e;
    }
  }

  /** Issue 19: a secret that expires within 14 days, said once a day per account and node. */
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
   * The refusal's audit details: the method, when the request was read that far (issue 22); why an
   * expired secret or an assertion was refused, which a client's developer asks the operator about.
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
