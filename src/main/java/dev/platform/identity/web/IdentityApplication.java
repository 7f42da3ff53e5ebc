package dev.platform.identity.web;

import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.ApiErrorMapper;
import dev.platform.identity.admin.InvalidJsonMapper;
import dev.platform.identity.admin.ScopesResource;
import dev.platform.identity.admin.ServiceAccountsResource;
import dev.platform.identity.admin.SigningKeysResource;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.Database;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.KeyRotation;
import dev.platform.identity.key.PublicKeysResource;
import dev.platform.identity.key.UnknownKeyMapper;
import dev.platform.identity.scope.ScopeCatalog;
import dev.platform.identity.token.DiscoveryResource;
import dev.platform.identity.verify.BearerVerifier;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.jersey.jackson.JacksonFeature;
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

  IdentityApplication(
      Settings settings,
      Database database,
      KeyRing keyRing,
      KeyRotation keyRotation,
      ServiceAccounts accounts,
      SecretDigest digest,
      ScopeCatalog scopes,
      AuditLog audit,
      Clock clock,
      SecureRandom random) {
    PROVIDERS.setLevel(Level.SEVERE);
    property(ServerProperties.WADL_FEATURE_DISABLE, true);
    // Jersey's own errors without a body (no such path, another method, another media type) go
    // through sendError, so that web.xml's error page answers them in the surface's JSON shape.
    property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, false);
    register(JacksonFeature.withoutExceptionMappers());
    register(new Json());
    register(new ServerErrorMapper());
    register(new PathParameters());
    register(new HealthResource(database));
    register(new UnknownKeyMapper());
    register(new PublicKeysResource(keyRing));
    register(new DiscoveryResource(settings.issuer(), scopes));

    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(settings.issuer().toString())
            .clock(clock)
            .keyLocator(keyRing::publicKey)
            .build();
    register(new AdminAuth(verifier, accounts, audit, settings.managerGrantableScopes()));
    register(new ApiErrorMapper());
    register(new InvalidJsonMapper());
    register(
        new ServiceAccountsResource(settings.issuer(), accounts, digest, scopes, clock, random));
    register(new ScopesResource(scopes));
    register(new SigningKeysResource(keyRing, keyRotation, clock));
  }
}
