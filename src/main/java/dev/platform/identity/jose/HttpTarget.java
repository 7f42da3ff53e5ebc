package dev.platform.identity.jose;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Optional;

/**
 * An HTTP(S) URI as a DPoP proof's {@code htu} is compared (RFC 9449 §4.3 check 9): without its
 * query and fragment, after RFC 3986's syntax-based normalisation (§6.2.2: scheme and host in lower
 * case, percent-encodings in upper case and unreserved characters decoded, dot segments removed)
 * and scheme-based normalisation (§6.2.3: the default port and an empty port dropped, an empty path
 * made "/"). Two URIs that normalise to the same text are the same target.
 */
final class HttpTarget {
  private static final String UNRESERVED =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

  private HttpTarget() {}

  /** {@code text} normalised; empty when it is not an absolute http or https URI with a host. */
  static Optional<String> normalised(String text) {
    try {
      return normalised(new URI(text));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  /**
   * {@code uri} normalised; empty when it is not an absolute http or https URI with a host. A
   * character outside ASCII in it is read as its UTF-8 percent-encoding, as a client sends it.
   */
  static Optional<String> normalised(URI given) {
    URI uri;
    try {
      uri = URI.create(given.toASCIIString());
    } catch (RuntimeException e) {
      // A lone UTF-16 surrogate makes toASCIIString throw (NullPointerException in URI.encode);
      // anything else URI.create refuses: no URI names such a target.
      return Optional.empty();
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    int defaultPort = scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : 0;
    if (defaultPort == 0 || uri.isOpaque() || uri.getHost() == null) {
      return Optional.empty();
    }
    int port = uri.getPort();
    String userInfo = uri.getRawUserInfo();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return Optional.of(
        scheme
            + "://"
            + (userInfo == null ? "" : percentNormalised(userInfo) + "@")
            + uri.getHost().toLowerCase(Locale.ROOT)
            + (port == -1 || port == defaultPort ? "" : ":" + port)
            + withoutDotSegments(percentNormalised(path)));
  }

  /** RFC 3986 §6.2.2.1 and §6.2.2.2: %xx in upper case, an unreserved character decoded. */
  private static String percentNormalised(String raw) {
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%' && i + 2 < raw.length()) {
        int value = Integer.parseInt(raw.substring(i + 1, i + 3), 16);
        if (UNRESERVED.indexOf(value) >= 0) {
          out.append((char) value);
        } else {
          out.append('%').append(raw.substring(i + 1, i + 3).toUpperCase(Locale.ROOT));
        }
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** RFC 3986 §5.2.4 on an absolute path: "." and ".." segments resolved, never above "/". */
  private static String withoutDotSegments(String path) {
    String[] segments = path.substring(1).split("/", -1);
    Deque<String> kept = new ArrayDeque<>();
    for (int i = 0; i < segments.length; i++) {
      boolean last = i == segments.length - 1;
      switch (segments[i]) {
        case "." -> {}
        case ".." -> kept.pollLast();
        default -> kept.addLast(segments[i]);
      }
      if (last && (segments[i].equals(".") || segments[i].equals(".."))) {
        kept.addLast("");
      }
    }
    return "/" + String.join("/", kept);
  }
}
