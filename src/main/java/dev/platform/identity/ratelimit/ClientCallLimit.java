package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.BufferedRequest;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.token.ClientCall;
import dev.platform.identity.token.FailureBudget;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.PresentedCertificate;
import dev.platform.identity.token.TokenAnswer;
import dev.platform.identity.token.TokenBody;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The rate limit of {@code POST /oauth/revoke} and {@code POST /oauth/introspect}: the token
 * endpoint's failure budgets (DESIGN decision 7), keyed and spent as {@link RateLimitFilter} spends
 * them, so a secret guessed here costs what it costs there; but not its success budget, which
 * counts tokens issued (SPEC 8), and a resource server may introspect far more often than 60 times
 * a minute. The body is in memory when this runs (the front door read it).
 */
public final class ClientCallLimit implements Filter {
  private final RateLimiter limiter;
  private final AuditLog audit;
  private final String refusalEvent;

  /**
   * @param refusalEvent the audit event of a refusal answered here
   */
  public ClientCallLimit(RateLimiter limiter, AuditLog audit, String refusalEvent) {
    this.limiter = limiter;
    this.audit = audit;
    this.refusalEvent = refusalEvent;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) request;
    HttpServletResponse answer = (HttpServletResponse) response;
    if (!"POST".equals(http.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    String address = ClientAddress.of(http);
    TokenBody body;
    ClientCall call = null;
    OAuthError refusal = null;
    try {
      body = TokenBody.read(http);
      call =
          ClientCall.from(
              body.text(),
              http.getContentType(),
              http.getHeader("Authorization"),
              http.getQueryString(),
              PresentedCertificate.from(http));
    } catch (OAuthError e) {
      body = null;
      refusal = e;
    }
    String clientKey = call == null ? null : call.accountId().map(UUID::toString).orElse(null);
    Admission admission = limiter.admitFailures(clientKey, address);
    if (!admission.admitted()) {
      OAuthError limited = limited(admission.retryAfterSeconds());
      audit.refused(
          refusalEvent,
          clientKey,
          limited.error(),
          address,
          Map.of("budget", admission.spent().label()));
      TokenAnswer.of(limited).writeTo(answer);
      return;
    }
    FailureBudget budget =
        (refused, authenticated) ->
            limiter
                .failed(admission, refused.status(), authenticated)
                .map(spent -> limited(spent.retryAfterSeconds()))
                .orElse(refused);
    if (refusal != null) {
      OAuthError answered = budget.spend(refusal, false);
      audit.refused(refusalEvent, null, answered.error(), address, Map.of());
      TokenAnswer.of(answered).writeTo(answer);
      return;
    }
    HttpServletRequest buffered = new BufferedRequest(http, body.bytes());
    buffered.setAttribute(FailureBudget.ATTRIBUTE, budget);
    buffered.setAttribute(ClientCall.ATTRIBUTE, call);
    chain.doFilter(buffered, answer);
  }

  private static OAuthError limited(long retryAfter) {
    return OAuthError.rateLimitExceeded(
        "Too many requests; retry after " + retryAfter + " s", Duration.ofSeconds(retryAfter));
  }
}
