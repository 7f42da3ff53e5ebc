package dev.platform.identity.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.http.ErrorBody;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerTokenException;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.DpopRequest;
import dev.platform.identity.verify.UnauthenticatedException;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /metrics}: the registry in Prometheus' text format (version 0.0.4). Registered at that
 * exact path only, so the container decides what reaches it. With a verifier, only a token of this
 * service carrying {@link #SCOPE} does (401 without a good token, 403 without the scope, RFC 6750
 * §3): a bearer token, or a DPoP-bound one with its proof for {@code {issuer}/metrics} (RFC 9449
 * §7, the URL as published, as {@code /admin/v1} judges it); without one (setting {@code open}),
 * anyone.
 */
public final class MetricsServlet extends HttpServlet {
  /** The catalog scope that reads /metrics. */
  static final String SCOPE = "identity:metrics";

  public static final String PATH = "/metrics";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

  private final transient PrometheusMeterRegistry registry;
  private final transient BearerVerifier verifier;
  private final transient ServiceAccounts accounts;
  private final transient Revocations revocations;
  private final transient URI dpopTarget;

  /**
   * @param verifier checks the caller's token; null for {@code open} access
   * @param accounts whether the token's account still stands behind it, as the administration API
   *     asks: a deactivated scraper stops reading at once
   * @param revocations the revoked tokens (issue 38), refused as the administration API refuses
   *     them: a revoked scraper token stops reading at once, not at its exp
   * @param issuer the service's published URL: a DPoP proof must name {@code {issuer}/metrics}
   */
  public MetricsServlet(
      PrometheusMeterRegistry registry,
      BearerVerifier verifier,
      ServiceAccounts accounts,
      Revocations revocations,
      URI issuer) {
    this.registry = registry;
    String base = issuer.toString();
    this.dpopTarget =
        URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + PATH);
    this.verifier = verifier;
    this.accounts = accounts;
    this.revocations = revocations;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (verifier != null) {
      try {
        X509Certificate certificate =
            BearerCheck.presentedCertificate(
                request.getAttribute(BearerCheck.CERTIFICATE_ATTRIBUTE));
        List<String> authorizations = Collections.list(request.getHeaders("Authorization"));
        if (authorizations.size() > 1) {
          // Which of two headers a proxy would read is not ours to guess, as BearerCheck says.
          throw verifier.answered(
              new UnauthenticatedException("more than one Authorization header"), false);
        }
        // The scope, revocation and the account's standing before a DPoP proof's jti is taken.
        verifier.verify(
            authorizations.isEmpty() ? null : authorizations.get(0),
            new DpopRequest(
                Collections.list(request.getHeaders("DPoP")), request.getMethod(), dpopTarget),
            certificate,
            token -> {
              token.requireScopes(List.of(SCOPE));
              if (revocations.isRevoked(
                  token.clientId(), token.tokenId().orElse(null), token.issuedAt().orElse(null))) {
                throw new UnauthenticatedException("the token has been revoked");
              }
              Optional<String> refusal = accounts.refusal(token.clientId(), token.issuedAt());
              if (refusal.isPresent()) {
                throw new UnauthenticatedException(refusal.get());
              }
            });
      } catch (BearerTokenException e) {
        refuse(response, e);
        return;
      }
    }
    String method = request.getMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      response.setHeader("Allow", "GET, HEAD");
      return;
    }
    byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType(TEXT_FORMAT);
    response.setContentLength(body.length);
    response.getOutputStream().write(body); // Tomcat sends no body to HEAD
  }

  static void refuse(HttpServletResponse response, BearerTokenException e) throws IOException {
    byte[] body =
        JSON.writeValueAsBytes(
            new ErrorBody(e.status() == 401 ? "unauthorized" : "insufficient_scope"));
    response.setStatus(e.status());
    response.setHeader("WWW-Authenticate", e.challenge());
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
