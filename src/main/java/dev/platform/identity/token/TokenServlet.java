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

/**
 * {@code POST /oauth/token} (SPEC 4.1): parse, authenticate, grant, sign. A read path: one
 * primary-key read of the account, one digest compare, one RSA signature (DESIGN decision 2).
 *
 * <p>A plain servlet rather than a Jersey resource: the endpoint takes one form and answers one
 * JSON object, and Jersey's routing, injection and message-body lookup cost a sixth as much as the
 * RSA signature itself (README "Performance"). Every other path but the key list stays with Jersey.
 */
public final class TokenServlet extends HttpServlet {
  private final transient ClientAuthenticator clients;
  private final transient ScopeCatalog scopes;
  private final transient TokenIssuer issuer;
  private final transient AuditLog audit;

  public TokenServlet(
      ClientAuthenticator clients, ScopeCatalog scopes, TokenIssuer issuer, AuditLog audit) {
    this.clients = clients;
    this.scopes = scopes;
    this.issuer = issuer;
    this.audit = audit;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    answer(request).writeTo(response);
  }

  private TokenAnswer answer(HttpServletRequest request) {
    if (!"POST".equals(request.getMethod())) {
      return TokenAnswer.onlyPost();
    }
    try {
      return TokenAnswer.of(
          issue(
              TokenBody.read(request).text(),
              request.getContentType(),
              request.getHeader("Authorization"),
              request.getQueryString(),
              ClientAddress.of(request)));
    } catch (OAuthError e) {
      return TokenAnswer.of(e);
    } catch (RuntimeException e) {
      return TokenAnswer.of(Incident.logged(e));
    }
  }

  /** The token path without HTTP: parse, authenticate, grant, sign; audited either way. */
  TokenResponseBody issue(
      String body, String contentType, String authorization, String query, String remote) {
    String clientId = null;
    try {
      TokenRequest request = TokenRequest.from(body, contentType, authorization, query);
      clientId = request.clientId();
      ServiceAccount account = clients.authenticate(request);
      TokenResponseBody token =
          TokenResponseBody.from(issuer.issue(account, grant(account, request)));
      audit.record("token.issue", clientId, token.scope(), "success", remote);
      return token;
    } catch (OAuthError e) {
      audit.record("token.refuse", clientId, null, e.error(), remote);
      throw e;
    }
  }

  private GrantedScopes grant(ServiceAccount account, TokenRequest request) {
    try {
      return scopes.grant(account.scopes(), request.scope());
    } catch (InvalidScopeException e) {
      throw OAuthError.invalidScope(e.getMessage());
    }
  }
}
