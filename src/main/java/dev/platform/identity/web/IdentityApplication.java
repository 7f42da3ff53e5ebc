package dev.platform.identity.web;

import dev.platform.identity.db.Database;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.PublicKeysResource;
import dev.platform.identity.key.UnknownKeyMapper;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * The one JAX-RS application: every resource and provider, as instances built by {@link Startup}.
 */
final class IdentityApplication extends ResourceConfig {
  /**
   * Jersey warns about every resource registered as an instance, which is how the composition root
   * wires them; the warning is a known false positive (eclipse-ee4j/jersey#3700).
   */
  private static final Logger PROVIDERS =
      Logger.getLogger("org.glassfish.jersey.internal.inject.Providers");

  IdentityApplication(Database database, KeyRing keyRing) {
    PROVIDERS.setLevel(Level.SEVERE);
    property(ServerProperties.WADL_FEATURE_DISABLE, true);
    property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
    register(JacksonFeature.withoutExceptionMappers());
    register(new Json());
    register(new ServerErrorMapper());
    register(new HealthResource(database));
    register(new UnknownKeyMapper());
    register(new PublicKeysResource(keyRing));
  }
}
