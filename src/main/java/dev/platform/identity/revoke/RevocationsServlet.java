package dev.platform.identity.revoke;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /oauth/revocations}: the revocation feed, public like the key list (docs/security.md
 * says what it reveals). Served from the snapshot's bytes and ETag, made when the revocations
 * change: a poll with the current ETag in {@code If-None-Match} is a 304 with no body. {@code
 * no-cache}: a cache may keep it, but must ask again each time, since a revocation must not wait
 * for a cache's lifetime.
 */
public final class RevocationsServlet extends HttpServlet {
  private static final byte[] ONLY_GET =
      "{\"error\":\"The revocation feed accepts only GET\"}".getBytes(StandardCharsets.UTF_8);

  private final transient Revocations revocations;

  public RevocationsServlet(Revocations revocations) {
    this.revocations = revocations;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String method = request.getMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      response.setHeader("Allow", "GET, HEAD");
      write(response, ONLY_GET);
      return;
    }
    RevocationFeed feed = revocations.feed();
    response.setHeader("ETag", feed.etag());
    response.setHeader("Cache-Control", "no-cache");
    if (matches(request.getHeader("If-None-Match"), feed.etag())) {
      response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
      return;
    }
    write(response, feed.body()); // Tomcat sends no body to HEAD
  }

  /** RFC 9110 §13.1.2: a list of ETags, or {@code *}; weak comparison (a W/ prefix is ignored). */
  static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String candidate : ifNoneMatch.split(",")) {
      String tag = candidate.strip();
      if (tag.equals("*") || (tag.startsWith("W/") ? tag.substring(2) : tag).equals(etag)) {
        return true;
      }
    }
    return false;
  }

  private static void write(HttpServletResponse response, byte[] body) throws IOException {
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
