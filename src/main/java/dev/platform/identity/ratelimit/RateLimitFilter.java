package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.ClientAddress;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.TokenAnswer;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;

/**
 * Limits {@code POST /oauth/token} before the account is read or anything is signed (DESIGN
 * "Shape"): beyond a budget, SPEC 7.1's 429 {@code rate_limit_exceeded} with {@code retry_after}
 * and an equal {@code Retry-After} header.
 */
public final class RateLimitFilter implements Filter {
  private final RateLimiter limiter;
  private final AuditLog audit;

  public RateLimitFilter(RateLimiter limiter, AuditLog audit) {
    this.limiter = limiter;
    this.audit = audit;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) request;
    if (!"POST".equals(http.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    ReadAheadRequest readAhead = ReadAheadRequest.of(http);
    String clientId = ClientId.from(http.getHeader("Authorization"), readAhead.head());
    String address = ClientAddress.of(http);
    Admission admission = limiter.admit(clientId, address);
    if (!admission.admitted()) {
      audit.record("token.refuse", clientId, null, "rate_limit_exceeded", address);
      refuse((HttpServletResponse) response, admission.retryAfterSeconds());
      return;
    }
    try {
      chain.doFilter(readAhead, response);
    } finally {
      limiter.settle(admission, ((HttpServletResponse) response).getStatus());
    }
  }

  private static void refuse(HttpServletResponse response, long retryAfter) throws IOException {
    OAuthError refusal =
        OAuthError.rateLimitExceeded(
            "Too many token requests; retry after " + retryAfter + " s",
            Duration.ofSeconds(retryAfter));
    TokenAnswer.of(refusal).writeTo(response);
  }
}
