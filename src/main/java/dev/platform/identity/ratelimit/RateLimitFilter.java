package dev.platform.identity.ratelimit;

import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.http.BufferedRequest;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.token.FailureBudget;
import dev.platform.identity.token.OAuthError;
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
import java.util.List;
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
 * <p>The body is in memory by the time this filter runs: the front door read it without a thread ,
 * and runs this filter and the endpoint together once it is in.
 */
public final class RateLimitFilter implements Filter {
  private static final String FORM = "application/x-www-form-urlencoded";

  private final RateLimiter limiter;
  private final AuditLog audit;
  private final TokenServlet endpoint;
  private final TokenMeters meters;
  private final Map<String, Counter> refusalsByBudget = new HashMap<>();

  /**
   * @param endpoint the token endpoint, which the console's login goes on to ({@link #answer})
   * @param meters the token path's counters, which count what this filter answers itself
   * @param registry where the 429s are counted by budget
   */
  public RateLimitFilter(
      RateLimiter limiter,
      AuditLog audit,
      TokenServlet endpoint,
      TokenMeters meters,
      MeterRegistry registry) {
    this.limiter = limiter;
    this.audit = audit;
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

  /**
   * What the filter made of a request: the request to hand on, as parsed, and its key; or a
   * refusal.
   */
  private record Reading(
      HttpServletRequest request, TokenRequest parsed, String clientKey, OAuthError refusal) {}

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest http = (HttpServletRequest) request;
    if (!"POST".equals(http.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    judge(http, (HttpServletResponse) response, chain::doFilter);
  }

  /**
   * Once the body is read: admit the request or answer 429; a refusal spends failure budget as it
   * is answered, and the success budget is settled after.
   */
  private void judge(HttpServletRequest http, HttpServletResponse answer, Next next)
      throws IOException, ServletException {
    String address = ClientAddress.of(http);
    Reading reading = read(http);
    Admission admission = limiter.admit(reading.clientKey(), address);
    if (!admission.admitted()) {
      refuse(answer, limited(admission));
      return;
    }
    try {
      if (reading.refusal() == null) {
        reading.request().setAttribute(FailureBudget.ATTRIBUTE, budget(admission));
        reading.request().setAttribute(TokenRequest.ATTRIBUTE, reading.parsed());
        next.handle(reading.request(), answer);
      } else {
        unparsed(reading.refusal(), admission).writeTo(answer);
      }
    } finally {
      limiter.settle(admission, answer.getStatus());
    }
  }

  /**
   * A token request made inside the service (the console's login form), judged as one that came
   * over HTTP from {@code address}: the same budgets spent and settled, the same audit lines and
   * counters, the same answer.
   *
   * @param body a form body ({@code application/x-www-form-urlencoded})
   * @param authorization the {@code Authorization} header the request would carry, or null
   */
  public TokenAnswer answer(String body, String authorization, String address) {
    return answer(body, authorization, null, address);
  }

  /**
   * {@link #answer(String, String, String)} for a request that carries a DPoP proof (RFC 9449
   * §4.1), checked as the token endpoint checks one over HTTP; with server nonces on, the answer
   * carries {@code DPoP-Nonce} as over HTTP.
   *
   * @param dpopProof the {@code DPoP} header the request would carry, or null
   */
  public TokenAnswer answer(String body, String authorization, String dpopProof, String address) {
    TokenRequest parsed = null;
    OAuthError unparsed = null;
    try {
      parsed = TokenRequest.from(body, FORM, authorization, null);
    } catch (OAuthError refusal) {
      unparsed = refusal;
    }
    Admission admission = limiter.admit(parsed == null ? null : clientKey(parsed), address);
    if (!admission.admitted()) {
      return TokenAnswer.of(limited(admission));
    }
    TokenRequest request = parsed;
    TokenAnswer answer =
        unparsed == null
            ? endpoint.answer(
                () -> request,
                dpopProof == null ? List.of() : List.of(dpopProof),
                address,
                budget(admission))
            : unparsed(unparsed, admission);
    limiter.settle(admission, answer.status());
    return answer;
  }

  /** The endpoint's own refusal of a request it cannot parse, once it has spent its budget. */
  private TokenAnswer unparsed(OAuthError refusal, Admission admission) {
    OAuthError answered = budget(admission).spend(refusal, false);
    audit.refused("token.refuse", null, answered.error(), admission.address(), Map.of());
    meters.refused(answered.error());
    return TokenAnswer.of(answered);
  }

  /** What a refusal of the admitted request spends: a 429 once a budget is spent. */
  private FailureBudget budget(Admission admission) {
    return (refusal, authenticated) ->
        limiter
            .failed(admission, refusal.status(), authenticated)
            .map(this::counted)
            .orElse(refusal);
  }

  /** A 429 refused before the request ran: audited (counted by the minute) and counted. */
  private OAuthError limited(Admission refused) {
    OAuthError limited = counted(refused);
    audit.refused(
        "token.refuse",
        refused.clientId(),
        limited.error(),
        refused.address(),
        Map.of("budget", refused.spent().label()));
    meters.refused(limited.error());
    return limited;
  }

  /** The 429 of a spent budget, counted by the budget. */
  private OAuthError counted(Admission refused) {
    refusalsByBudget.get(refused.spent().label()).increment();
    return rateLimited(refused.retryAfterSeconds());
  }

  private static Reading read(HttpServletRequest http) {
    try {
      TokenBody body = TokenBody.read(http);
      TokenRequest parsed = TokenRequest.read(http, body.text());
      return new Reading(new BufferedRequest(http, body.bytes()), parsed, clientKey(parsed), null);
    } catch (OAuthError refusal) {
      return new Reading(null, null, null, refusal);
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
    return clientKey(TokenRequest.from(body, contentType, authorization, query));
  }

  private static String clientKey(TokenRequest request) {
    return request.accountId().map(UUID::toString).orElse(null);
  }

  private static void refuse(HttpServletResponse response, OAuthError limited) throws IOException {
    TokenAnswer.of(limited).writeTo(response);
  }

  private static OAuthError rateLimited(long retryAfter) {
    return OAuthError.rateLimitExceeded(
        "Too many token requests; retry after " + retryAfter + " s",
        Duration.ofSeconds(retryAfter));
  }
}
