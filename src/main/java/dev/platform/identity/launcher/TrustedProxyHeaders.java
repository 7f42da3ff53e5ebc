package dev.platform.identity.launcher;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.SSLValve;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.http.MimeHeaders;

/**
 * Issue 39: SSLValve's headers pass only from a trusted proxy. Tomcat's {@link SSLValve} (10.1)
 * believes its headers from any sender: it has no address check, and RemoteIpValve's
 * internalProxies do not reach it. So this valve, placed before it, removes those headers when the
 * connection's peer is not a trusted proxy, and logs that once a minute per address at most. The
 * certificate is parsed by SSLValve, never here, and never logged here.
 *
 * <p>Usable from a Tomcat distribution's server.xml (with this class in {@code lib/}): {@code
 * <Valve className="dev.platform.identity.launcher.TrustedProxyHeaders" trustedProxies="..."/>}.
 */
public final class TrustedProxyHeaders extends ValveBase {
  private static final Logger LOG = Logger.getLogger(TrustedProxyHeaders.class.getName());
  private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);
  private static final int MAX_REMEMBERED = 10_000;

  private final Clock clock;
  private final Map<String, Instant> lastLogged = new ConcurrentHashMap<>();
  private volatile Pattern trustedProxies = Pattern.compile("a^"); // nothing until set
  private final List<String> headers;

  /** For server.xml: trusts no address until {@link #setTrustedProxies} is called. */
  public TrustedProxyHeaders() {
    this(Clock.systemUTC());
  }

  TrustedProxyHeaders(Clock clock) {
    super(true);
    this.clock = clock;
    SSLValve defaults = new SSLValve();
    this.headers =
        List.of(
            defaults.getSslClientCertHeader(),
            defaults.getSslClientEscapedCertHeader(),
            defaults.getSslCipherHeader(),
            defaults.getSslSessionIdHeader(),
            defaults.getSslCipherUserKeySizeHeader());
  }

  /** A regular expression that the whole peer address must match, as RemoteIpValve's. */
  public void setTrustedProxies(String regex) {
    this.trustedProxies = Pattern.compile(regex);
  }

  public String getTrustedProxies() {
    return trustedProxies.pattern();
  }

  @Override
  public void invoke(Request request, Response response) throws IOException, ServletException {
    // The connection's peer: RemoteIpValve changes getRemoteAddr(), never getPeerAddr().
    String peer = request.getPeerAddr();
    if (!trustedProxies.matcher(peer).matches() && removeHeaders(request)) {
      if (firstThisMinute(peer)) {
        LOG.warning(
            "Ignored a client-certificate header from "
                + peer
                + ", which is not a trusted proxy (--trusted-proxy "
                + trustedProxies.pattern()
                + "); said once a minute per address");
      }
    }
    getNext().invoke(request, response);
  }

  private boolean removeHeaders(Request request) {
    MimeHeaders mime = request.getCoyoteRequest().getMimeHeaders();
    boolean removed = false;
    for (String header : headers) {
      if (mime.getHeader(header) != null) {
        mime.removeHeader(header);
        removed = true;
      }
    }
    return removed;
  }

  /** Whether {@code peer} was not logged in the last minute; the map is bounded by clearing. */
  boolean firstThisMinute(String peer) {
    Instant now = clock.instant();
    if (lastLogged.size() > MAX_REMEMBERED) {
      lastLogged.clear();
    }
    Instant before = lastLogged.get(peer);
    if (before != null && now.isBefore(before.plus(LOG_INTERVAL))) {
      return false;
    }
    return lastLogged.put(peer, now) == before;
  }
}
