package dev.platform.identity.audit;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.IOException;

/**
 * Puts the caller's address where JAX-RS code can read it: a request attribute, which Jersey shows
 * as a request property. (Injecting the servlet request into a singleton needs an HK2 proxy, which
 * fails where the container loads the servlet API in another class loader.)
 */
public final class ClientAddress implements Filter {
  static final String ATTRIBUTE = ClientAddress.class.getName();

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    request.setAttribute(ATTRIBUTE, request.getRemoteAddr());
    chain.doFilter(request, response);
  }

  /** The caller's address, as this filter recorded it. */
  public static String of(ContainerRequestContext request) {
    Object address = request.getProperty(ATTRIBUTE);
    return address == null ? "unknown" : address.toString();
  }
}
