package dev.platform.identity.verify;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * SPEC 5.6 "use HTTPS only", as the libraries apply it to the identity service's URLs ({@link
 * RemotePublicKeys}, and {@code TokenClient} in the client package, hence public): https to any
 * host; plain http only to a loopback host, where nothing leaves the machine (tests, a sidecar);
 * never user info in the URL.
 *
 * <p>A host is loopback by its text alone: {@code localhost} in any case, an IPv4 literal in
 * 127.0.0.0/8 or the IPv6 literal {@code [::1]}. Names are never resolved: a lookup at build time
 * says nothing about where the connection goes later (the record can change, or be answered by
 * whoever controls the resolver or the zone, as {@code 127.0.0.1.nip.io} is by its owner), so a
 * name resolving to 127.0.0.1 is not loopback here.
 */
public final class HttpsOnly {
  private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

  /** Dotted decimal only: no leading zeros, which some resolvers read as octal. */
  private static final Pattern LOOPBACK_V4 = Pattern.compile("127(\\." + OCTET + "){3}");

  private static final String ALLOWED =
      "https to any host, or http to localhost, 127.0.0.0/8 or [::1], with no user info (SPEC 5.6)";

  private HttpsOnly() {}

  /**
   * {@code url} if the rule allows it.
   *
   * @param setting the builder setting the URL was given to, named in the refusal
   * @throws IllegalArgumentException naming the setting, the URL's scheme and host (never its user
   *     info, path or query) and what is allowed
   */
  public static URI check(String setting, URI url) {
    Objects.requireNonNull(url, setting);
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    // An authority java.net.URI cannot split (e.g. "u:p@under_score") has '@' but no user info.
    String authority = url.getRawAuthority();
    if (url.getRawUserInfo() != null || (authority != null && authority.contains("@"))) {
      throw refused(setting, url, "it carries user info (not shown)");
    }
    if (url.getHost() == null) {
      throw refused(setting, url, "it has no host");
    }
    if (scheme.equals("https") || (scheme.equals("http") && isLoopback(url.getHost()))) {
      return url;
    }
    throw refused(
        setting,
        url,
        scheme.equals("http")
            ? "plain http is for a loopback host only"
            : "the scheme is neither https nor http");
  }

  /**
   * Whether {@code host} names the loopback interface by its text. {@code localhost} is in every
   * hosts file; names under {@code .localhost} are not accepted: RFC 6761 §6.3 asks resolvers to
   * keep them on loopback, but the JDK hands them to the system resolver, and common ones (glibc
   * without nss-myhostname, musl) ask DNS.
   */
  static boolean isLoopback(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    return name.equals("localhost") || name.equals("[::1]") || LOOPBACK_V4.matcher(name).matches();
  }

  private static IllegalArgumentException refused(String setting, URI url, String reason) {
    return new IllegalArgumentException(
        setting
            + " is refused: "
            + reason
            + "; allowed: "
            + ALLOWED
            + "; got scheme "
            + quoted(url.getScheme())
            + ", host "
            + quoted(url.getHost()));
  }

  private static String quoted(String part) {
    return part == null ? "none" : "\"" + part + "\"";
  }
}
