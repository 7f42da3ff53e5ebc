package dev.platform.identity.web;

import dev.platform.identity.token.TokenBody;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Set;

/**
 * The largest request body each route takes, in this one table. {@link FrontDoor} refuses a larger
 * declared length before anything reads a byte, and stops reading at the cap. A route is what the
 * container matched (the servlet's name) and the path it mapped, decoded and normalised (never the
 * path as spelled); what is not in the table takes no body at all, so a new endpoint takes none
 * until it is given a row here.
 */
final class BodyLimits {
  /** The names {@link Startup} registers its servlets under. */
  static final String TOKEN_SERVLET = "token";

  static final String JERSEY_SERVLET = "identity";

  static final String REVOCATION_SERVLET = "revocation";

  static final String INTROSPECTION_SERVLET = "introspection";

  /** The console's login form: a client_id, a secret of 200 characters at most, a nonce. */
  static final int LOGIN_FORM = 4 * 1024;

  /** An administrator's JSON and the console's forms are a few hundred bytes. */
  static final int ADMINISTRATION = 64 * 1024;

  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH");

  /** One row: a path (and everything under it) of a servlet, its methods, and its cap. */
  record Route(String servlet, String path, Set<String> methods, int maxBytes) {
    boolean matches(String servletName, String method, String mapped) {
      return servlet.equals(servletName)
          && methods.contains(method)
          && (mapped.equals(path) || mapped.startsWith(path + "/"));
    }
  }

  /** The first row that matches decides, so a narrower row stands before a wider one. */
  static final List<Route> ROUTES =
      List.of(
          new Route(TOKEN_SERVLET, "/oauth/token", Set.of("POST"), TokenBody.MAX),
          new Route(REVOCATION_SERVLET, "/oauth/revoke", Set.of("POST"), TokenBody.MAX),
          new Route(INTROSPECTION_SERVLET, "/oauth/introspect", Set.of("POST"), TokenBody.MAX),
          new Route(JERSEY_SERVLET, "/console/login", Set.of("POST"), LOGIN_FORM),
          new Route(JERSEY_SERVLET, "/console", Set.of("POST"), ADMINISTRATION),
          new Route(JERSEY_SERVLET, "/admin/v1", WRITES, ADMINISTRATION));

  private BodyLimits() {}

  /** The most bytes of body {@code request}'s route takes; 0 when it takes none. */
  static int of(HttpServletRequest request) {
    String servlet = request.getHttpServletMapping().getServletName();
    String method = request.getMethod();
    String mapped = mappedPath(request);
    for (Route route : ROUTES) {
      if (route.matches(servlet, method, mapped)) {
        return route.maxBytes();
      }
    }
    return 0;
  }

  /** The path the container mapped: servlet path and path info, decoded, without {@code ;x}. */
  static String mappedPath(HttpServletRequest request) {
    String info = request.getPathInfo();
    return request.getServletPath() + (info == null ? "" : info);
  }
}
