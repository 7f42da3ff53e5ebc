package dev.platform.identity.revoke;

import dev.platform.identity.http.PublishedDocumentServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /oauth/revocations}: the revocation feed, public like the key list (docs/security.md
 * says what it reveals). Served from the snapshot's bytes and ETag, made when the revocations
 * change: a poll with the current ETag in {@code If-None-Match} is a 304 with no body. {@code
 * no-cache}: a cache may keep it, but must ask again each time, since a revocation must not wait
 * for a cache's lifetime.
 */
public final class RevocationsServlet extends PublishedDocumentServlet {
  private final transient Revocations revocations;

  public RevocationsServlet(Revocations revocations) {
    super("The revocation feed");
    this.revocations = revocations;
  }

  @Override
  protected void answer(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    FeedDocument feed = revocations.feed();
    response.setHeader("ETag", feed.etag());
    response.setHeader("Cache-Control", "no-cache");
    if (matches(request.getHeader("If-None-Match"), feed.etag())) {
      response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
      return;
    }
    write(response, feed.body());
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
}
