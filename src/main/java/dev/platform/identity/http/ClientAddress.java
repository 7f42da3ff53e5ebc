package dev.platform.identity.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Works out the caller's address once per request and puts it where every later step can read it: a
 * request attribute, which Jersey shows as a request property. The servlet's remote address, unless
 * it is a configured trusted proxy: then the right-most {@code X-Forwarded-For} entry that is not a
 * trusted proxy (entries further left are the client's own claims and cannot be trusted).
 * (Injecting the servlet request into a JAX-RS singleton needs an HK2 proxy, which fails where the
 * container loads the servlet API in another class loader; hence the attribute.)
 */
public final class ClientAddress implements Filter {
  static final String ATTRIBUTE = ClientAddress.class.getName();

  private final Set<String> trustedProxies;

  public ClientAddress(List<String> trustedProxies) {
    this.trustedProxies = Set.copyOf(trustedProxies);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    request.setAttribute(ATTRIBUTE, address((HttpServletRequest) request));
    chain.doFilter(request, response);
  }

  String address(HttpServletRequest request) {
    String address = request.getRemoteAddr();
    if (!trustedProxies.contains(address)) {
      return address;
    }
    String forwarded =
        String.join(",", java.util.Collections.list(request.getHeaders("X-Forwarded-For")));
    String[] hops = forwarded.split(",");
    for (int i = hops.length - 1; i >= 0; i--) {
      String hop = hops[i].trim();
      if (!hop.isEmpty() && !trustedProxies.contains(hop)) {
        return hop.length() > 64 ? hop.substring(0, 64) : hop;
      }
    }
    return address;
  }

  /** The caller's address, as this filter worked it out. */
  public static String of(ContainerRequestContext request) {
    Object address = request.getProperty(ATTRIBUTE);
    return address == null ? "unknown" : address.toString();
  }

  /** The caller's address, as this filter worked it out (the servlet's, if it did not run). */
  public static String of(ServletRequest request) {
    Object address = request.getAttribute(ATTRIBUTE);
    return address == null ? request.getRemoteAddr() : address.toString();
  }
}
