package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.token.BodyReader;
import dev.platform.identity.token.OAuthError;
import dev.platform.identity.token.SlowBodies;
import dev.platform.identity.token.TokenAnswer;
import dev.platform.identity.token.TokenBody;
import dev.platform.identity.token.TokenMeters;
import dev.platform.identity.token.TokenRequest;
import dev.platform.identity.token.TokenServlet;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Limits {@code POST /oauth/token} before the account is read or anything is signed (DESIGN
 * "Shape"): beyond a budget, SPEC 7.1's 429 {@code rate_limit_exceeded} with {@code retry_after}
 * and an equal {@code Retry-After} header. The request is read and parsed by the endpoint's own
 * {@link TokenBody} and {@link TokenRequest#from}, so the client whose budget is spent is the
 * client the endpoint authenticates; a request the endpoint would refuse unparsed is refused here,
 * with the endpoint's answer, as a failure of its address.
 *
 * <p>The body is read without a thread by {@link BodyReader} (issue 26); once it is read, the
 * filter judges the request and hands it to the token endpoint itself.
 */
public final class RateLimitFilter implements Filter {
  private static final String FORM = "application/x-www-form-urlencoded";

  private final RateLimiter limiter;
  private final AuditLog audit;
  private final SlowBodies slowBodies;
  private final TokenServlet endpoint;
  private final TokenMeters meters;
  private final Map<String, Counter> refusalsByBudget = new HashMap<>();

  /**
   * @param endpoint the token endpoint, which a request whose body was read without a thread goes
   *     on to directly (the filter chain has returned by then)
   * @param meters the token path's counters, which count what this filter answers itself
   * @param registry where the 429s are counted by budget (issue 20)
   */
  public RateLimitFilter(
      RateLimiter limiter,
      AuditLog audit,
      SlowBodies slowBodies,
      TokenServlet endpoint,
      TokenMeters meters,
      MeterRegistry registry) {
    this.limiter = limiter;
    this.audit = audit;
    this.slowBodies = slowBodies;
    this.endpoint = endpoint;
    this.meters = meters;
    for (String budget : Budget.LABELS) {
      refusalsByBudget.put(
          budget,
          Counter.builder("identity.token.rate.limited")
              .description("Token requests answered 429, by the budget that was spent")
              .tag("budget", budget)
              .register(registry));
    }
  }

  /** Where an admitted request goes on to. */
  @FunctionalInterface
  private interface Next {
    void handle(HttpServletRequest request, HttpServletResponse response)
        throws IOException, ServletException;
  }

  /** What the filter made of a request: the request to hand on and its key, or a refusal. */
  private record Reading(HttpServletRequest request, String clientKey, OAuthError refusal) {}

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) request;
    if (!"POST".equals(http.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    if (http.isAsyncSupported()) {
      BodyReader.start(http, slowBodies, (read, answer) -> judge(read, answer, endpoint::service));
      return;
    }
    judge(http, (HttpServletResponse) response, chain::doFilter);
  }

  /** Once the body is read: admit the request or answer 429, and settle its budget after. */
  private void judge(HttpServletRequest http, HttpServletResponse answer, Next next)
      throws IOException, ServletException {
    String address = ClientAddress.of(http);
    Reading reading = read(http);
    Admission admission = limiter.admit(reading.clientKey(), address);
    if (!admission.admitted()) {
      audit.record("token.refuse", reading.clientKey(), null, "rate_limit_exceeded", address);
      meters.refused(OAuthError.RATE_LIMIT_EXCEEDED);
      refusalsByBudget.get(admission.spent().label()).increment();
      refuse(answer, admission.retryAfterSeconds());
      return;
    }
    try {
      if (reading.refusal() == null) {
        next.handle(reading.request(), answer);
      } else {
        audit.record("token.refuse", null, null, reading.refusal().error(), address);
        meters.refused(reading.refusal().error());
        TokenAnswer.of(reading.refusal()).writeTo(answer);
      }
    } finally {
      limiter.settle(admission, answer.getStatus());
    }
  }

  /**
   * Issue 21: a token request made inside the service (the console's login form), judged as one
   * that came over HTTP from {@code address}: the same budgets spent and settled, the same audit
   * lines and counters, the same answer.
   *
   * @param body a form body ({@code application/x-www-form-urlencoded})
   * @param authorization the {@code Authorization} header the request would carry, or null
   */
  public TokenAnswer answer(String body, String authorization, String address) {
    String clientKey = null;
    OAuthError unparsed = null;
    try {
      clientKey = clientKey(body, FORM, authorization, null);
    } catch (OAuthError refusal) {
      unparsed = refusal;
    }
    Admission admission = limiter.admit(clientKey, address);
    if (!admission.admitted()) {
      audit.record("token.refuse", clientKey, null, "rate_limit_exceeded", address);
      meters.refused(OAuthError.RATE_LIMIT_EXCEEDED);
      refusalsByBudget.get(admission.spent().label()).increment();
      return TokenAnswer.of(rateLimited(admission.retryAfterSeconds()));
    }
    TokenAnswer answer;
    if (unparsed == null) {
      answer = endpoint.answer(body, FORM, authorization, null, address);
    } else {
      audit.record("token.refuse", null, null, unparsed.error(), address);
      meters.refused(unparsed.error());
      answer = TokenAnswer.of(unparsed);
    }
    limiter.settle(admission, answer.status());
    return answer;
  }

  private static Reading read(HttpServletRequest http) {
    try {
      TokenBody body = TokenBody.read(http);
      String key =
          clientKey(
              body.text(),
              http.getContentType(),
              http.getHeader("Authorization"),
              http.getQueryString());
      return new Reading(new ReadAheadRequest(http, body), key, null);
    } catch (OAuthError refusal) {
      return new Reading(null, null, refusal);
    }
  }

  /**
   * The key of the client's budgets: the account the request names, as the endpoint finds it
   * ({@link TokenRequest#accountId}: one key whatever the case), or null when it names none.
   *
   * @throws OAuthError the endpoint's own refusal of a request it cannot parse: a repeated
   *     parameter, Basic and form credentials together, a malformed body or header
   */
  static String clientKey(String body, String contentType, String authorization, String query) {
    return TokenRequest.from(body, contentType, authorization, query)
        .accountId()
        .map(UUID::toString)
        .orElse(null);
  }

  private static void refuse(HttpServletResponse response, long retryAfter) throws IOException {
    TokenAnswer.of(rateLimited(retryAfter)).writeTo(response);
  }

  private static OAuthError rateLimited(long retryAfter) {
    return OAuthError.rateLimitExceeded(
        "Too many token requests; retry after " + retryAfter + " s",
        Duration.ofSeconds(retryAfter));
  }
}
