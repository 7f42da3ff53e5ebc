package dev.platform.identity.web;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import java.util.logging.Logger;

/**
 * Warns at start of a setting that lets one stranger lock everyone out: an https issuer means a
 * production deployment (http is allowed only on loopback), which the documented setups run behind
 * a reverse proxy; with no proxy trusted, every caller then has the proxy's address and all share
 * one per-address failure budget (docs/rate-limits.md).
 */
final class ProxyWarning {
  private static final Logger LOG = Logger.getLogger(ProxyWarning.class.getName());

  private ProxyWarning() {}

  static void logIfNoProxyIsTrusted(Settings.Tokens tokens, Settings.Limits limits) {
    if (limits.trustedProxies().isEmpty()
        && "https".equalsIgnoreCase(tokens.issuer().getScheme())) {
      LOG.warning(
          "java:comp/env/"
              + JndiSettings.TRUSTED_PROXIES
              + " is empty: behind a reverse proxy every caller has the proxy's address, so all"
              + " callers share one failure budget and one stranger's failed requests lock out"
              + " everyone. List the proxy's address there (127.0.0.1 and ::1 for a proxy on this"
              + " host); leave it empty only where callers connect directly.");
    }
  }
}
