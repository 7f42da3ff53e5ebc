package dev.platform.identity.web;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The part of the service a request was for, which decides its error shape (SPEC 7, DESIGN decision
 * 6): the token endpoint's {@code {error, error_description}} (also revocation's and
 * introspection's, RFC 7009 and 7662, which answer as the token endpoint does), the administration
 * API's {@code {success:false, message}}, and {@code {error}} for the key endpoints and any other
 * path.
 */
enum Surface {
  TOKEN,
  ADMINISTRATION,
  KEYS,
  OTHER;

  /** The surface of a path within the application, as sent (not yet decoded or normalized). */
  static Surface of(String path) {
    String normal = normalize(path);
    if (under(normal, "/oauth/token")
        || under(normal, "/oauth/revoke")
        || under(normal, "/oauth/introspect")) {
      return TOKEN;
    }
    if (under(normal, "/admin/v1")) {
      return ADMINISTRATION;
    }
    return under(normal, "/api/public-keys") ? KEYS : OTHER;
  }

  /** Case aside: {@code /ADMIN/v1} routes nowhere, but was aimed at the administration API. */
  private static boolean under(String path, String prefix) {
    String lower = path.toLowerCase(Locale.ROOT);
    return lower.equals(prefix) || lower.startsWith(prefix + "/");
  }

  /**
   * The path as the container maps it: no path parameters ({@code ;x}), no empty or {@code .}
   * segments, {@code ..} applied (also percent-encoded), so {@code //oauth/token;x} is the token
   * endpoint and {@code /oauth/token/..} is not.
   */
  static String normalize(String path) {
    Deque<String> segments = new ArrayDeque<>();
    for (String raw : path.split("/")) {
      String segment = raw.replaceFirst(";.*", "");
      String dots = segment.toLowerCase(Locale.ROOT).replace("%2e", ".");
      if (dots.equals("..")) {
        segments.pollLast();
      } else if (!segment.isEmpty() && !dots.equals(".")) {
        segments.addLast(segment);
      }
    }
    return "/" + String.join("/", segments);
  }
}
