package dev.platform.identity.token;

import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.ClientAddress;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * An endpoint where a client authenticates as at the token endpoint and asks about a token: {@code
 * POST /oauth/revoke} and {@code POST /oauth/introspect}. Parsed and rate-limited before it runs
 * (the limit leaves the call under {@link ClientCall#ATTRIBUTE}), authenticated here by the token
 * endpoint's {@link ClientAuthenticator}, answered by the endpoint's {@link Work}; refusals in SPEC
 * 7.1's shape with {@code Cache-Control: no-store}, spending the token endpoint's failure budgets.
 */
final class ClientCallServlet extends HttpServlet {
  /** What an endpoint does for an authenticated client. */
  @FunctionalInterface
  interface Work {
    /**
     * @throws OAuthError a refusal after the client authenticated
     */
    TokenAnswer answer(ClientCall call, ServiceAccount client, String remote);
  }

  private final transient String name;
  private final transient String refusalEvent;
  private final transient ClientAuthenticator clients;
  private final transient AuditLog audit;
  private final transient Work work;

  /**
   * @param name the endpoint, as a refusal names it ("The revocation endpoint")
   * @param refusalEvent the audit event of a refusal
   */
  ClientCallServlet(
      String name, String refusalEvent, ClientAuthenticator clients, AuditLog audit, Work work) {
    this.name = name;
    this.refusalEvent = refusalEvent;
    this.clients = clients;
    this.audit = audit;
    this.work = work;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    answer(request).writeTo(response);
  }

  private TokenAnswer answer(HttpServletRequest request) {
    if (!"POST".equals(request.getMethod())) {
      return TokenAnswer.onlyPost(name);
    }
    Object spent = request.getAttribute(FailureBudget.ATTRIBUTE);
    FailureBudget budget = spent instanceof FailureBudget given ? given : FailureBudget.NONE;
    String remote = ClientAddress.of(request);
    String clientId = null;
    boolean authenticated = false;
    try {
      ClientCall call = parse(request);
      clientId = call.client().clientId();
      ServiceAccount client = clients.authenticate(call.client()).account();
      authenticated = true;
      return work.answer(call, client, remote);
    } catch (OAuthError e) {
      OAuthError answered = budget.spend(e, authenticated);
      audit.refused(refusalEvent, clientId, answered.error(), remote, Map.of());
      return TokenAnswer.of(answered);
    } catch (RuntimeException e) {
      return TokenAnswer.ofFailure(e);
    }
  }

  /** As the rate limit parsed it, or from the request when no limit ran (tests). */
  private static ClientCall parse(HttpServletRequest request) {
    if (request.getAttribute(ClientCall.ATTRIBUTE) instanceof ClientCall parsed) {
      return parsed;
    }
    return ClientCall.from(
        TokenBody.read(request).text(),
        request.getContentType(),
        request.getHeader("Authorization"),
        request.getQueryString(),
        PresentedCertificate.from(request));
  }
}
