package dev.platform.identity.verify;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What of a request its DPoP proof is checked against (RFC 9449 §4.3, §7.1): every value of its
 * {@code DPoP} header, in order (a request with two is refused), its method as sent, and its URI as
 * the client addressed it, which the proof's {@code htu} must name (query and fragment ignored).
 *
 * <p>The URI is the API's to say, not the request's: a {@code Host} header is the client's to
 * choose. {@link #target(List, URI)} picks it among the API's own external base URLs.
 *
 * @param proofs every {@code DPoP} header value; empty when there is none
 * @param method the request's method, such as {@code GET}
 * @param target the request's URI as the client addressed it
 */
public record DpopRequest(List<String> proofs, String method, URI target) {
  public DpopRequest {
    proofs = List.copyOf(proofs);
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
  }

  /**
   * The target of a request whose path no proof may name: one no proof's {@code htu} can equal (a
   * reserved {@code .invalid} host), so every proof is refused for it.
   */
  public static final URI NO_TARGET = URI.create("https://path-not-in-normal-form.invalid/");

  private static final Pattern DOT_SEGMENT = Pattern.compile("(?:^|/)(?:\\.|%2[eE]){1,2}(?:/|$)");

  /**
   * Whether a raw path holds a dot segment ({@code .} or {@code ..}, as written or
   * percent-encoded). A proof's {@code htu} is compared after RFC 3986's normalisation, which
   * removes them, while a framework may route the path as it came ({@code /accounts/%2e} to the
   * account named "."): a proof made for one route would then be taken for another. Such a path is
   * refused any proof.
   */
  public static boolean hasDotSegment(String rawPath) {
    return rawPath != null && DOT_SEGMENT.matcher(rawPath).find();
  }

  /**
   * The URI a proof must name for a request that reached this server as {@code requestUri}: its raw
   * path and query under the one of {@code bases} (scheme, host and port of the API as clients
   * address it, such as {@code https://api.example.com}) whose host is the request's, else under
   * the first; {@code requestUri} itself when {@code bases} is empty.
   *
   * <p>The request's own URI is rebuilt from its {@code Host} header, which the client writes: an
   * attacker who captured a proof for one host cannot use it here through that, since the proof
   * still names its own host, but behind a proxy that rewrites {@code Host} or terminates TLS the
   * rebuilt URI is not the one clients used, and every proof is refused. The bases fix what the
   * proof must name whatever the request says, choosing among the API's names only.
   *
   * @param bases the API's external base URLs, each an absolute {@code http} or {@code https} URI
   *     with no path but {@code /}, no query and no fragment; may be empty
   * @param requestUri the request's absolute URI as the server rebuilt it
   * @return {@link #NO_TARGET} for a path with a dot segment ({@link #hasDotSegment})
   */
  public static URI target(List<URI> bases, URI requestUri) {
    if (hasDotSegment(requestUri.getRawPath())) {
      return NO_TARGET;
    }
    if (bases.isEmpty()) {
      return requestUri;
    }
    URI base =
        bases.stream()
            .filter(b -> b.getHost().equalsIgnoreCase(String.valueOf(requestUri.getHost())))
            .findFirst()
            .orElse(bases.get(0));
    String path = requestUri.getRawPath() == null ? "" : requestUri.getRawPath();
    String query = requestUri.getRawQuery() == null ? "" : "?" + requestUri.getRawQuery();
    return URI.create(base.getScheme() + "://" + base.getRawAuthority() + path + query);
  }

  /**
   * {@code base} checked as {@link #target} needs it.
   *
   * @throws IllegalArgumentException when it is not an absolute {@code http} or {@code https} URI
   *     of a host, or has a path, query or fragment
   */
  public static URI base(URI base) {
    String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(Locale.ROOT);
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    if (!(scheme.equals("https") || scheme.equals("http"))
        || base.getHost() == null
        || !(path.isEmpty() || path.equals("/"))
        || base.getRawQuery() != null
        || base.getRawFragment() != null
        || base.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          "a DPoP base URL is scheme, host and port alone, such as https://api.example.com");
    }
    return base;
  }
}
