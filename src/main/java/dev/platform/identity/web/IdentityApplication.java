package dev.platform.identity.web;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * The one JAX-RS application: every resource and provider, as instances built by {@link Startup}.
 * (The two hot paths are plain servlets: {@link dev.platform.identity.token.TokenServlet} and
 * {@link dev.platform.identity.key.PublicKeysServlet}.)
 */
final class IdentityApplication extends ResourceConfig {
  /**
   * Jersey warns about every resource registered as an instance, which is how the composition root
   * wires them; the warning is a known false positive (eclipse-ee4j/jersey#3700).
   */
  private static final Logger PROVIDERS =
      Logger.getLogger("org.glassfish.jersey.internal.inject.Providers");

  /** Registers {@code components}, resources and providers already built, in this order. */
  IdentityApplication(Object... components) {
    PROVIDERS.setLevel(Level.SEVERE);
    property(ServerProperties.WADL_FEATURE_DISABLE, true);
    // Jersey's own errors without a body (no such path, another method, another media type) go
    // through sendError, so that web.xml's error page answers them in the surface's JSON shape.
    property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, false);
    // A Location given relative (the console's redirects) stays so: never resolved against the
    // request's Host header, which the client chooses.
    property(ServerProperties.LOCATION_HEADER_RELATIVE_URI_RESOLUTION_DISABLED, true);
    for (Object component : components) {
      register(component);
    }
  }
}
