package dev.platform.identity.verify;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.catalina.Context;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.DPoPAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.web.DPoPAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.oauth2.server.resource.web.authentication.DPoPAuthenticationConverter;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.FilterChainProxy;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;
import org.springframework.web.filter.RequestContextFilter;

/**
 * Spring Security's resource server (7.1.2) with DPoP, in an embedded Tomcat's context, wired as
 * its {@code DPoPAuthenticationConfigurer} (in {@code spring-security-config}, not a dependency
 * here) wires it: an {@code AuthenticationFilter} with a {@code DPoPAuthenticationConverter} for
 * {@code Authorization: DPoP} requests, over a {@code DPoPAuthenticationProvider} that verifies the
 * token with a {@code JwtAuthenticationProvider} and then the proof, failures answered by {@code
 * DPoPAuthenticationEntryPoint}; then the {@code BearerTokenAuthenticationFilter} for Bearer
 * requests. Every path answers the authenticated caller's name. Public for the ITs.
 */
public final class SpringResourceServer {
  private SpringResourceServer() {}

  /**
   * Spring's filters and a who-am-I servlet in {@code context}, tokens decoded by {@code decoder}.
   */
  public static void wire(Context context, JwtDecoder decoder) {
    ProviderManager tokens = new ProviderManager(new JwtAuthenticationProvider(decoder));
    AuthenticationFilter dpop =
        new AuthenticationFilter(
            new ProviderManager(new DPoPAuthenticationProvider(tokens)),
            new DPoPAuthenticationConverter());
    dpop.setRequestMatcher(
        request -> {
          String authorization = request.getHeader("Authorization");
          return authorization != null && authorization.regionMatches(true, 0, "DPoP ", 0, 5);
        });
    dpop.setSuccessHandler((request, response, authentication) -> {});
    dpop.setFailureHandler(
        new AuthenticationEntryPointFailureHandler(new DPoPAuthenticationEntryPoint()));
    dpop.setSecurityContextRepository(new RequestAttributeSecurityContextRepository());
    EmbeddedTomcat.addFilter(context, "requestContext", filter(new RequestContextFilter()), "/*");
    EmbeddedTomcat.addFilter(
        context,
        "springSecurityFilterChain",
        filter(
            new FilterChainProxy(
                new DefaultSecurityFilterChain(
                    AnyRequestMatcher.INSTANCE,
                    dpop,
                    new BearerTokenAuthenticationFilter(tokens)))),
        "/*");
    EmbeddedTomcat.addServlet(context, "whoami", new WhoAmI(), "/*");
  }

  private static FilterDef filter(Filter filter) {
    FilterDef def = new FilterDef();
    def.setFilter(filter);
    def.setFilterClass(filter.getClass().getName());
    return def;
  }

  /** Who the authenticated caller is, by Spring's security context. */
  private static final class WhoAmI extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
      if (authentication == null || !authentication.isAuthenticated()) {
        response.sendError(403, "no authentication");
        return;
      }
      response.setContentType("text/plain");
      response.getWriter().print(authentication.getName());
    }
  }
}
