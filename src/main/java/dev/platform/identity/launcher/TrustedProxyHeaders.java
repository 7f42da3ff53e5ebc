package dev.platform.identity.launcher;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.catalina.Globals;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.SSLValve;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.http.MimeHeaders;

/**
 * Issue 39: SSLValve's headers pass only from a trusted proxy. Tomcat's {@link SSLValve} (10.1)
 * believes its headers from any sender: it has no address check, and RemoteIpValve's
 * internalProxies do not reach it. So this valve, placed before it, removes those headers when the
 * connection's peer is not a trusted proxy, and logs that once a minute per address at most (and
 * {@value #MAX_LINES_PER_MINUTE} lines a minute in all). It also removes them from a connection
 * that presented a client certificate over TLS itself, so that a header never replaces a
 * certificate the client proved it holds. The certificate is parsed by SSLValve, never here, and
 * never logged here.
 *
 * <p>At start it reads the header names of every SSLValve of its pipeline (a server.xml may rename
 * them) and refuses to start when an SSLValve comes before it, which it could not protect.
 *
 * <p>Usable from a Tomcat distribution's server.xml (with this class in {@code lib/}): {@code
 * <Valve className="dev.platform.identity.launcher.TrustedProxyHeaders" trustedProxies="..."/>}.
 */
public final class TrustedProxyHeaders extends ValveBase {
  private static final Logger LOG = Logger.getLogger(TrustedProxyHeaders.class.getName());
  private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);
  private static final int MAX_REMEMBERED = 10_000;
  static final int MAX_LINES_PER_MINUTE = 10;

  private final Clock clock;
  private final Map<String, Instant> lastLogged = new ConcurrentHashMap<>();
  private volatile Pattern trustedProxies = Pattern.compile("a^"); // nothing until set
  private volatile List<String> headers;
  private Instant minute = Instant.EPOCH;
  private int linesThisMinute;

  /** For server.xml: trusts no address until {@link #setTrustedProxies} is called. */
  public TrustedProxyHeaders() {
    this(Clock.systemUTC());
  }

  TrustedProxyHeaders(Clock clock) {
    super(true);
    this.clock = clock;
    this.headers = headersOf(new SSLValve());
  }

  private static List<String> headersOf(SSLValve valve) {
    return List.of(
        valve.getSslClientCertHeader(),
        valve.getSslClientEscapedCertHeader(),
        valve.getSslCipherHeader(),
        valve.getSslSessionIdHeader(),
        valve.getSslCipherUserKeySizeHeader());
  }

  /**
   * The header names of every SSLValve after this one (with SSLValve's defaults), and none before
   * it: an SSLValve that runs first believes its headers from anyone, whatever this valve does.
   */
  @Override
  protected synchronized void startInternal() throws LifecycleException {
    Set<String> names = new LinkedHashSet<>(headersOf(new SSLValve()));
    boolean after = false;
    for (Valve valve : getContainer().getPipeline().getValves()) {
      if (valve == this) {
        after = true;
      } else if (valve instanceof SSLValve ssl) {
        if (!after) {
          throw new LifecycleException(
              "An SSLValve comes before TrustedProxyHeaders in the pipeline: it would believe"
                  + " its certificate headers from any address. Put TrustedProxyHeaders first.");
        }
        names.addAll(headersOf(ssl));
      }
    }
    headers = List.copyOf(names);
    super.startInternal();
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
    if (!trustedProxies.matcher(peer).matches()) {
      if (removeHeaders(request) && firstThisMinute(peer)) {
        LOG.warning(
            "Ignored a client-certificate header from "
                + peer
                + ", which is not a trusted proxy (--trusted-proxy "
                + trustedProxies.pattern()
                + "); said once a minute per address");
      }
    } else if (request.isSecure() && hasHeaders(request) && presentedOverTls(request)) {
      removeHeaders(request); // the client's own TLS certificate stands
    }
    getNext().invoke(request, response);
  }

  private boolean hasHeaders(Request request) {
    MimeHeaders mime = request.getCoyoteRequest().getMimeHeaders();
    return headers.stream().anyMatch(header -> mime.getHeader(header) != null);
  }

  /** Whether the connection's own TLS handshake gave a client certificate. */
  private static boolean presentedOverTls(Request request) {
    Object chain = request.getAttribute(Globals.CERTIFICATES_ATTR);
    return chain instanceof X509Certificate[] certificates && certificates.length > 0;
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

  /**
   * Whether {@code peer} was not logged in the last minute, and the minute's lines in all are not
   * spent (many addresses, say a rotated IPv6 range, must not flood the log); the map is bounded by
   * clearing.
   */
  boolean firstThisMinute(String peer) {
    Instant now = clock.instant();
    if (lastLogged.size() > MAX_REMEMBERED) {
      lastLogged.clear();
    }
    Instant before = lastLogged.get(peer);
    if (before != null && now.isBefore(before.plus(LOG_INTERVAL))) {
      return false;
    }
    return lastLogged.put(peer, now) == before && withinMinutesLines(now);
  }

  private synchronized boolean withinMinutesLines(Instant now) {
    if (!now.isBefore(minute.plus(LOG_INTERVAL))) {
      minute = now;
      linesThisMinute = 0;
    }
    return ++linesThisMinute <= MAX_LINES_PER_MINUTE;
  }
}
