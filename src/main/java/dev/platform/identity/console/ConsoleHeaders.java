package dev.platform.identity.console;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The headers of every answer under {@code /console}, a page, a refusal or an error alike: a
 * Content-Security-Policy that allows the console's own stylesheet and script and nothing else (no
 * inline script, no CDN, no framing), {@code no-store}, and no sniffing or referrer.
 */
public final class ConsoleHeaders extends HttpFilter {
  /** Where it is mapped. */
  public static final String PATTERN = ConsoleAuth.ROOT + "/*";

  static final String POLICY =
      "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    response.setHeader("Content-Security-Policy", POLICY);
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "no-referrer");
    chain.doFilter(request, response);
  }
}
