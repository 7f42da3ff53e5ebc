package dev.platform.identity.verify.servlet;

import dev.platform.identity.verify.BearerCheck;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.ClientPrincipal;
import dev.platform.identity.verify.RemotePublicKeys;
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
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;

/**
 * A servlet filter that passes on only requests whose bearer token {@link BearerVerifier} accepts
 * with the required scopes (SPEC 5.4). A passed request carries the {@code VerifiedToken} in the
 * attribute {@link #VERIFIED_TOKEN}, and its {@code getUserPrincipal()} is a {@link
 * ClientPrincipal} named for the client id, {@code getAuthType()} is {@code "Bearer"} and {@code
 * isUserInRole(scope)} answers {@code VerifiedToken.hasScope(scope)}.
 *
 * <p>Any other request is answered here and goes no further: 401 or 403 with the {@code
 * WWW-Authenticate} challenge and SPEC 7.2's {@code {success: false, message}}, or 503 when the
 * token could not be checked (the key source is unreachable); see {@link BearerCheck#of}.
 *
 * <p>Made with a verifier, as {@code new BearerTokenFilter(verifier, List.of("catalog:x.view"))}
 * for {@code ServletContext.addFilter}; or declared in {@code web.xml} with the init-params {@code
 * issuer} (required: the issuer's base URL, whose {@code /api/public-keys} give the keys through
 * {@link RemotePublicKeys}) and {@code scopes} (optional: required scopes separated by spaces,
 * commas or line breaks). Thread-safe once initialized.
 */
public final class BearerTokenFilter implements Filter {
  /** The request attribute that holds the {@code VerifiedToken} of a passed request. */
  public static final String VERIFIED_TOKEN = BearerCheck.VERIFIED_TOKEN;

  /** The init-param naming the issuer, for a filter declared in {@code web.xml}. */
  public static final String ISSUER_PARAM = "issuer";

  /** The init-param listing the required scopes, for a filter declared in {@code web.xml}. */
  public static final String SCOPES_PARAM = "scopes";

  private BearerVerifier verifier;
  private List<String> requiredScopes;

  /** A filter that {@link #init} sets up from its init-params; for {@code web.xml}. */
  public BearerTokenFilter() {}

  /**
   * A filter that checks with {@code verifier}; its init-params, if any, are ignored.
   *
   * @param requiredScopes scopes every request needs, all of them; may be empty
   */
  public BearerTokenFilter(BearerVerifier verifier, Collection<String> requiredScopes) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.requiredScopes = List.copyOf(requiredScopes);
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
    try {
      verifier =
          BearerVerifier.builder()
              .issuer(issuer.strip())
              .keyLocator(RemotePublicKeys.builder().issuer(URI.create(issuer.strip())).build())
              .build();
    } catch (IllegalArgumentException e) {
      throw new ServletException("init-param " + ISSUER_PARAM + ": " + e.getMessage(), e);
    }
    requiredScopes = scopes(config.getInitParameter(SCOPES_PARAM));
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
    BearerCheck check = BearerCheck.of(verifier, headers, requiredScopes);
    if (check instanceof BearerCheck.Passed passed) {
      http.setAttribute(VERIFIED_TOKEN, passed.token());
      chain.doFilter(new TokenRequest(http, passed.principal()), response);
    } else {
      refuse(answer, (BearerCheck.Refused) check);
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
      return "Bearer";
    }

    /** A role is a scope the token covers; {@code "**"} is any authenticated caller (Servlet 6). */
    @Override
    public boolean isUserInRole(String role) {
      return role != null && ("**".equals(role) || principal.token().hasScope(role));
    }
  }
}
