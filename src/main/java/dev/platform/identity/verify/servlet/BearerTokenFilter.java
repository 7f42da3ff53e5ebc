package dev.platform.identity.verify.servlet;

import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.ClientPrincipal;
import dev.platform.identity.verify.DpopRequest;
import dev.platform.identity.verify.RemotePublicKeys;
import dev.platform.identity.verify.RevocationFeed;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A servlet filter that passes on only requests whose bearer token {@link BearerVerifier} accepts
 * with the required scopes (SPEC 5.4). A passed request carries the {@code VerifiedToken} in the
 * attribute {@link #VERIFIED_TOKEN}, and its {@code getUserPrincipal()} is a {@link
 * ClientPrincipal} named for the client id, {@code getAuthType()} is {@code "Bearer"} ({@code
 * "DPoP"} for a DPoP-bound token) and {@code isUserInRole(scope)} answers {@code
 * VerifiedToken.hasScope(scope)}.
 *
 * <p>Any other request is answered here and goes no further: 401 or 403 with the {@code
 * WWW-Authenticate} challenge and SPEC 7.2's {@code {success: false, message}}, or 503 when the
 * token could not be checked (the key source is unreachable); see {@link BearerCheck#of}.
 *
 * <p>Made with a verifier, as {@code new BearerTokenFilter(verifier, List.of("catalog:x.view"))}
 * for {@code ServletContext.addFilter}; or declared in {@code web.xml} with the init-params {@code
 * issuer} (required: the issuer's base URL, whose {@code /api/public-keys} give the keys through
 * {@link RemotePublicKeys}) and {@code scopes} (optional: required scopes separated by spaces,
 * commas or line breaks). With the init-param {@code revocations} set to {@code true} it also
 * refuses revoked tokens, polling {@code {issuer}/oauth/revocations} through a {@link
 * RevocationFeed} that {@link #destroy} closes; {@code revocationRefreshInterval} and {@code
 * revocationMaxStaleness} (ISO-8601 durations such as {@code PT5S}) and {@code revocationOnStale}
 * ({@code warn} or {@code fail-closed}) set its options, by default the feed's.
 *
 * <p>The token's binding to the client certificate is checked too (RFC 8705 §3): a token whose
 * {@code cnf} names a certificate passes only when the request attribute {@link
 * BearerCheck#CERTIFICATE_ATTRIBUTE} holds that certificate first, as the container's TLS or a
 * trusted proxy's header through Tomcat's {@code SSLValve} sets it; otherwise 401 {@code
 * invalid_token}. With the init-param {@code requireCertificateBinding} set to {@code true}, an
 * unbound token is refused too ({@code BearerVerifier.Builder.requireCertificateBinding} for a
 * filter made with a verifier).
 *
 * <p>DPoP (RFC 9449 §7) is taken too: {@code Authorization: DPoP <token>} with one {@code DPoP}
 * header whose proof names the request's method and URI ({@link BearerVerifier#verify(String,
 * DpopRequest, X509Certificate, java.util.Collection)}); a token bound to a key is refused as
 * {@code Bearer}, and every refusal's challenge names {@code DPoP algs="ES256 RS256 PS256"}. The
 * URI a proof must name is the request URL as the container rebuilds it from the {@code Host}
 * header, unless the API's external base URLs are given ({@link DpopRequest#target}: the init-param
 * {@code dpopBaseUrls}, such as {@code https://api.example.com}, several separated by spaces or
 * commas, or the constructor's list); behind a proxy that terminates TLS or rewrites the host, give
 * them, or every proof is refused. Thread-safe once initialized.
 */
public final class BearerTokenFilter implements Filter {
  /** The request attribute that holds the {@code VerifiedToken} of a passed request. */
  public static final String VERIFIED_TOKEN = BearerCheck.VERIFIED_TOKEN;

  /** The init-param naming the issuer, for a filter declared in {@code web.xml}. */
  public static final String ISSUER_PARAM = "issuer";

  /** The init-param listing the required scopes, for a filter declared in {@code web.xml}. */
  public static final String SCOPES_PARAM = "scopes";

  /** The init-param that turns revocation checking on: {@code true} or {@code false} (default). */
  public static final String REVOCATIONS_PARAM = "revocations";

  /** The init-param of the feed's refresh interval, an ISO-8601 duration; default 5 s. */
  public static final String REVOCATION_REFRESH_PARAM = "revocationRefreshInterval";

  /** The init-param of the feed's maximum staleness, an ISO-8601 duration; default 5 minutes. */
  public static final String REVOCATION_MAX_STALENESS_PARAM = "revocationMaxStaleness";

  /** The init-param of what a stale feed does: {@code warn} (default) or {@code fail-closed}. */
  public static final String REVOCATION_ON_STALE_PARAM = "revocationOnStale";

  /**
   * The init-param that refuses tokens not bound to a client certificate (RFC 8705): {@code true}
   * or {@code false} (default).
   */
  public static final String REQUIRE_BINDING_PARAM = "requireCertificateBinding";

  /**
   * The init-param listing the API's external base URLs, which DPoP proofs name ({@link
   * DpopRequest#target}): separated by spaces or commas; default the request URL.
   */
  public static final String DPOP_BASE_URLS_PARAM = "dpopBaseUrls";

  /**
   * What a proof must name when the request has none (refused for that anyway) or its URL is no
   * URI: no proof names it.
   */
  private static final URI NO_TARGET = URI.create("https://request-url-not-a-uri.invalid/");

  private BearerVerifier verifier;
  private List<String> requiredScopes;
  private List<URI> dpopBaseUrls = List.of();

  /** The feed this filter made from its init-params, closed with it; null otherwise. */
  private RevocationFeed revocations;

  /** A filter that {@link #init} sets up from its init-params; for {@code web.xml}. */
  public BearerTokenFilter() {}

  /**
   * A filter that checks with {@code verifier}; its init-params, if any, are ignored.
   *
   * @param requiredScopes scopes every request needs, all of them; may be empty
   */
  public BearerTokenFilter(BearerVerifier verifier, Collection<String> requiredScopes) {
    this(verifier, requiredScopes, List.of());
  }

  /**
   * A filter that checks with {@code verifier}, whose DPoP proofs name the request's path under one
   * of {@code dpopBaseUrls} ({@link DpopRequest#target}); its init-params, if any, are ignored.
   *
   * @param requiredScopes scopes every request needs, all of them; may be empty
   * @param dpopBaseUrls the API's external base URLs, such as {@code https://api.example.com};
   *     empty for the request URL
   * @throws IllegalArgumentException when a base URL has a path, query or fragment
   */
  public BearerTokenFilter(
      BearerVerifier verifier, Collection<String> requiredScopes, List<URI> dpopBaseUrls) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.requiredScopes = List.copyOf(requiredScopes);
    this.dpopBaseUrls = dpopBaseUrls.stream().map(DpopRequest::base).toList();
  }

  /**
   * Builds the verifier from the init-params when the filter was made without one.
   *
   * @throws ServletException when the {@code issuer} init-param is missing or not a URL
   */
  @Override
  public void init(FilterConfig config) throws ServletException {
    if (verifier != null) {
      return;
    }
    String issuer = config.getInitParameter(ISSUER_PARAM);
    if (issuer == null || issuer.isBlank()) {
      throw new ServletException(
          "filter " + config.getFilterName() + " needs the init-param " + ISSUER_PARAM);
    }
    BearerVerifier.Builder builder;
    try {
      builder =
          BearerVerifier.builder()
              .issuer(issuer.strip())
              .keyLocator(RemotePublicKeys.builder().issuer(URI.create(issuer.strip())).build());
    } catch (IllegalArgumentException e) {
      throw new ServletException("init-param " + ISSUER_PARAM + ": " + e.getMessage(), e);
    }
    builder.requireCertificateBinding(flag(config, REQUIRE_BINDING_PARAM));
    revocations = revocations(config, URI.create(issuer.strip()));
    if (revocations != null) {
      builder.revocations(revocations);
    }
    verifier = builder.build();
    requiredScopes = scopes(config.getInitParameter(SCOPES_PARAM));
    try {
      dpopBaseUrls =
          scopes(config.getInitParameter(DPOP_BASE_URLS_PARAM)).stream()
              .map(URI::create)
              .map(DpopRequest::base)
              .toList();
    } catch (IllegalArgumentException e) {
      throw new ServletException("init-param " + DPOP_BASE_URLS_PARAM + ": " + e.getMessage(), e);
    }
  }

  /** The feed the init-params ask for, polled once already; null when they ask for none. */
  private static RevocationFeed revocations(FilterConfig config, URI issuer)
      throws ServletException {
    if (!flag(config, REVOCATIONS_PARAM)) {
      return null;
    }
    RevocationFeed.Builder feed = RevocationFeed.builder().issuer(issuer);
    feed.refreshInterval(
        duration(config, REVOCATION_REFRESH_PARAM, RevocationFeed.DEFAULT_REFRESH_INTERVAL));
    feed.maxStaleness(
        duration(config, REVOCATION_MAX_STALENESS_PARAM, RevocationFeed.DEFAULT_MAX_STALENESS));
    String onStale = param(config, REVOCATION_ON_STALE_PARAM, "warn");
    switch (onStale.toLowerCase(Locale.ROOT)) {
      case "warn" -> feed.onStale(RevocationFeed.Stale.WARN);
      case "fail-closed" -> feed.onStale(RevocationFeed.Stale.FAIL_CLOSED);
      default ->
          throw new ServletException(
              "init-param " + REVOCATION_ON_STALE_PARAM + " must be warn or fail-closed");
    }
    try {
      return feed.build();
    } catch (IllegalStateException e) {
      throw new ServletException("the revocation init-params: " + e.getMessage(), e);
    }
  }

  /** A {@code true} or {@code false} init-param; false when absent. */
  private static boolean flag(FilterConfig config, String name) throws ServletException {
    String on = param(config, name, "false");
    if (!on.equals("true") && !on.equals("false")) {
      throw new ServletException("init-param " + name + " must be true or false");
    }
    return on.equals("true");
  }

  private static String param(FilterConfig config, String name, String otherwise) {
    String value = config.getInitParameter(name);
    return value == null || value.isBlank() ? otherwise : value.strip();
  }

  private static Duration duration(FilterConfig config, String name, Duration otherwise)
      throws ServletException {
    String value = config.getInitParameter(name);
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    try {
      return Duration.parse(value.strip());
    } catch (DateTimeParseException e) {
      throw new ServletException(
          "init-param " + name + " must be an ISO-8601 duration such as PT5S", e);
    }
  }

  /** Closes the revocation feed this filter made, if any: its thread and its HTTP client. */
  @Override
  public void destroy() {
    if (revocations != null) {
      revocations.close();
    }
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest http)
        || !(response instanceof HttpServletResponse answer)) {
      throw new ServletException("BearerTokenFilter serves HTTP requests only");
    }
    if (verifier == null) {
      throw new ServletException("BearerTokenFilter was not initialized");
    }
    List<String> headers = headers(http.getHeaders("Authorization"));
    X509Certificate certificate =
        BearerCheck.presentedCertificate(http.getAttribute(BearerCheck.CERTIFICATE_ATTRIBUTE));
    List<String> proofs = headers(http.getHeaders("DPoP"));
    DpopRequest dpop =
        new DpopRequest(
            proofs, String.valueOf(http.getMethod()), proofs.isEmpty() ? NO_TARGET : target(http));
    BearerCheck check = BearerCheck.of(verifier, headers, dpop, certificate, requiredScopes);
    if (check instanceof BearerCheck.Passed passed) {
      http.setAttribute(VERIFIED_TOKEN, passed.token());
      chain.doFilter(new TokenRequest(http, passed.principal()), response);
    } else {
      refuse(answer, (BearerCheck.Refused) check);
    }
  }

  /** The URI the request's DPoP proof must name ({@link DpopRequest#target}). */
  private URI target(HttpServletRequest http) {
    try {
      return DpopRequest.target(dpopBaseUrls, URI.create(String.valueOf(http.getRequestURL())));
    } catch (IllegalArgumentException e) {
      return NO_TARGET;
    }
  }

  private static List<String> headers(Enumeration<String> values) {
    return values == null ? List.of() : Collections.list(values);
  }

  private static void refuse(HttpServletResponse response, BearerCheck.Refused refused)
      throws IOException {
    byte[] body = refused.body().getBytes(StandardCharsets.UTF_8);
    response.setStatus(refused.status());
    refused.headers().forEach(response::setHeader);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private static List<String> scopes(String param) {
    if (param == null || param.isBlank()) {
      return List.of();
    }
    return List.of(param.strip().split("[\\s,]+"));
  }

  /** The request as the application sees it once its token passed. */
  private static final class TokenRequest extends HttpServletRequestWrapper {
    private final ClientPrincipal principal;

    TokenRequest(HttpServletRequest request, ClientPrincipal principal) {
      super(request);
      this.principal = principal;
    }

    @Override
    public Principal getUserPrincipal() {
      return principal;
    }

    @Override
    public String getRemoteUser() {
      return principal.getName();
    }

    @Override
    public String getAuthType() {
      return principal.token().keyThumbprint().isPresent() ? "DPoP" : "Bearer";
    }

    /** A role is a scope the token covers; {@code "**"} is any authenticated caller (Servlet 6). */
    @Override
    public boolean isUserInRole(String role) {
      return role != null && ("**".equals(role) || principal.token().hasScope(role));
    }
  }
}
