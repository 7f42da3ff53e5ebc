package dev.platform.identity.web;

import dev.platform.identity.account.Bootstrap;
import dev.platform.identity.account.PepperCheck;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.SecretPepperIdMigration;
import dev.platform.identity.account.SecretPeppers;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.admin.AdminAuth;
import dev.platform.identity.admin.ApiErrorMapper;
import dev.platform.identity.admin.AuditEventsResource;
import dev.platform.identity.admin.InvalidJsonMapper;
import dev.platform.identity.admin.ScopesResource;
import dev.platform.identity.admin.SecretPeppersResource;
import dev.platform.identity.admin.ServiceAccountsResource;
import dev.platform.identity.admin.SigningKeysResource;
import dev.platform.identity.audit.AuditEvents;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.AuditRetention;
import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.KeyId;
import dev.platform.identity.config.Settings;
import dev.platform.identity.console.Console;
import dev.platform.identity.console.ConsoleHeaders;
import dev.platform.identity.db.Database;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.key.KeyEncryption;
import dev.platform.identity.key.KeyEncryptionKeyIdMigration;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.KeyRotation;
import dev.platform.identity.key.KeyRowMacMigration;
import dev.platform.identity.key.PrivateKeys;
import dev.platform.identity.key.PublicKeysResource;
import dev.platform.identity.key.PublicKeysServlet;
import dev.platform.identity.key.RsaProvider;
import dev.platform.identity.key.SigningKeys;
import dev.platform.identity.key.UnknownKeyMapper;
import dev.platform.identity.metrics.MetricsServlet;
import dev.platform.identity.metrics.ServiceMetrics;
import dev.platform.identity.ratelimit.RateLimitFilter;
import dev.platform.identity.ratelimit.RateLimiter;
import dev.platform.identity.scope.ScopeCatalog;
import dev.platform.identity.token.ClientAuthenticator;
import dev.platform.identity.token.ClientKeySets;
import dev.platform.identity.token.DiscoveryResource;
import dev.platform.identity.token.SlowBodies;
import dev.platform.identity.token.TokenIssuer;
import dev.platform.identity.token.TokenMeters;
import dev.platform.identity.token.TokenServlet;
import dev.platform.identity.token.UsedAssertions;
import dev.platform.identity.verify.BearerVerifier;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.crypto.SecretKey;
import org.flywaydb.core.api.migration.JavaMigration;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * The composition root (STYLE 7): reads the settings, opens the database, wires every feature by
 * constructor and registers the token servlet at {@code /oauth/token}, the key list, web.xml's
 * error page and the one Jersey servlet at the context root (an exact mapping wins over {@code
 * /*}). Anything that fails here stops the deployment, with a message that says why.
 */
public class Startup implements ServletContextListener {
  private static final Logger LOG = Logger.getLogger(Startup.class.getName());

  private Database database;
  private KeyRotation keyRotation;
  private ScheduledExecutorService scheduler;
  private ServiceMetrics serviceMetrics;

  @Override
  public void contextInitialized(ServletContextEvent event) {
    try {
      start(event.getServletContext());
    } catch (InvalidSettingException e) {
      LOG.severe("The identity service cannot start: " + e.getMessage());
      close();
      throw e;
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "The identity service cannot start: " + e.getMessage(), e);
      close();
      throw e;
    }
  }

  private void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
    if (serviceMetrics != null) {
      serviceMetrics.close();
      serviceMetrics = null;
    }
    if (keyRotation != null) {
      keyRotation.close();
      keyRotation = null;
    }
    if (database != null) {
      database.close();
      database = null;
    }
  }

  private void start(ServletContext context) {
    Settings settings = JndiSettings.fromJndi();
    ProxyWarning.logIfNoProxyIsTrusted(settings);
    logKeyIds(settings);
    SecretDigest digest =
        new SecretDigest(settings.secretPepper(), settings.previousSecretPeppers());
    Clock clock = Clock.systemUTC();
    SecureRandom random = new SecureRandom();
    RsaProvider rsa = RsaProvider.choose(settings.rsaEngine());
    KeyEncryption keyEncryption =
        new KeyEncryption(
            settings.keyEncryptionKey(), settings.previousKeyEncryptionKeys(), random, rsa);
    // Issue 24: the PKCS#11 token, when one is configured, is opened (and logged in to) first, so
    // a wrong PIN or slot stops the start before the database is changed or an administrator made.
    PrivateKeys privateKeys = PrivateKeys.of(settings, keyEncryption, clock);
    database = Database.fromJndi(javaMigrations(settings));
    ServiceAccounts accounts = new ServiceAccounts(database);
    new PepperCheck(database.dataSource()).verify(digest);
    SecretPeppers peppers = new SecretPeppers(accounts, digest);
    peppers.warnOfUnknownPeppers(clock.instant());
    new Bootstrap(accounts, digest, clock, random).run(settings);
    SigningKeys signingKeys = new SigningKeys(database, keyEncryption);
    KeyRing keyRing = new KeyRing(signingKeys, privateKeys, settings.keySchedule(), clock);
    // The one scheduler of the key rotation, the scope refresh, the rate limiter's clean-up and the
    // account counts of /metrics; close() shuts it down. Two threads, so that a slow rotation never
    // delays the scope refresh.
    scheduler = Executors.newScheduledThreadPool(2, Startup::daemon);
    keyRotation =
        new KeyRotation(signingKeys, keyRing, privateKeys, settings, clock, random, scheduler);
    keyRotation.start();

    ScopeCatalog scopes = new ScopeCatalog(database);
    scopes.refreshEvery(ScopeCatalog.REFRESH_INTERVAL, scheduler);

    AuditLog audit = new AuditLog(clock);
    new AuditRetention(database, settings.auditRetention(), clock).scheduleOn(scheduler);
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(settings.issuer().toString())
            .clock(clock)
            .keyLocator(keyRing::publicKey)
            .provider(rsa.provider()) // the signer's provider, so identity/rsaProvider = jdk holds
            .build();
    // Issue 20: the one registry of /metrics, passed to what it counts; never the global one.
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    serviceMetrics = new ServiceMetrics(accounts, settings.secretRotation().maxAge(), clock);
    serviceMetrics.bindTo(registry, keyRing, keyRotation, scopes);
    serviceMetrics.countEvery(scheduler);
    TokenMeters tokenMeters = new TokenMeters(registry);
    TokenIssuer issuer =
        new TokenIssuer(
            settings.issuer(),
            settings.tokenLifetime(),
            settings.adminTokenLifetime(),
            keyRing,
            clock,
            tokenMeters);
    // Issue 22: private_key_jwt clients; each jti once, the expired ones deleted every 5 minutes.
    UsedAssertions usedAssertions = new UsedAssertions(database.dataSource());
    scheduler.scheduleWithFixedDelay(
        () -> usedAssertions.purge(clock.instant()), 5, 5, TimeUnit.MINUTES);
    ClientKeySets clientKeySets = new ClientKeySets(settings.allowPrivateJwksUris(), clock);
    TokenServlet tokenEndpoint =
        new TokenServlet(
            new ClientAuthenticator(
                accounts,
                digest,
                clock,
                settings.secretRotation().maxAge(),
                new ClientAuthenticator.Assertions(
                    settings.issuer(), usedAssertions, clientKeySets::at)),
            scopes,
            issuer,
            audit,
            tokenMeters);
    RateLimitFilter rateLimitFilter =
        new RateLimitFilter(
            rateLimiter(settings, clock),
            audit,
            new SlowBodies(clock),
            tokenEndpoint,
            tokenMeters,
            registry);

    AdminAuth adminAuth =
        new AdminAuth(verifier, accounts, audit, settings.managerGrantableScopes());
    Console console =
        new Console(
            new ServiceAccountsResource(
                settings.issuer(),
                accounts,
                digest,
                scopes,
                settings.secretRotation(),
                clock,
                random,
                clientKeySets::check),
            new ScopesResource(scopes),
            new SigningKeysResource(keyRing, keyRotation, clock),
            new AuditEventsResource(new AuditEvents(database)));
    List<Object> components =
        new ArrayList<>(
            List.of(
                JacksonFeature.withoutExceptionMappers(),
                new Json(),
                new ServerErrorMapper(),
                new PathParameters(),
                new HealthResource(database, keyRing),
                new UnknownKeyMapper(),
                new PublicKeysResource(keyRing),
                new DiscoveryResource(settings.issuer(), scopes),
                new OpenApiResource(),
                adminAuth,
                new ApiErrorMapper(),
                new InvalidJsonMapper(),
                console.accounts(),
                console.scopes(),
                console.keys(),
                new SecretPeppersResource(peppers, clock),
                console.audit()));
    // Issue 21: the console's pages, over those same resources and AdminAuth's check.
    components.addAll(
        console.components(
            settings, database.dataSource(), adminAuth, rateLimitFilter, verifier, clock, random));
    ResourceConfig application = new IdentityApplication(components.toArray());

    // Filter order, decided here and nowhere else: no web.xml declares a filter, and the container
    // runs programmatic mappings in the order they are added. So client-address (every path) runs
    // first, then rate-limit (the token endpoint), which needs the client's address.
    // The token path reads its body without a thread (issue 26): the rate-limit filter starts an
    // async request, and once the body is in, judges it and hands it to the token servlet itself.
    FilterRegistration.Dynamic clientAddress =
        context.addFilter("client-address", new ClientAddress(settings.trustedProxies()));
    clientAddress.setAsyncSupported(true);
    clientAddress.addMappingForUrlPatterns(null, false, "/*");
    FilterRegistration.Dynamic rateLimit = context.addFilter("rate-limit", rateLimitFilter);
    rateLimit.setAsyncSupported(true);
    rateLimit.addMappingForUrlPatterns(null, false, "/oauth/token");
    ServletRegistration.Dynamic token = context.addServlet("token", tokenEndpoint);
    token.setAsyncSupported(true);
    token.addMapping("/oauth/token");
    context
        .addServlet("public-keys", new PublicKeysServlet(keyRing))
        .addMapping("/api/public-keys");
    context.addServlet("error-page", new ErrorPageServlet()).addMapping(ErrorPageServlet.PATH);
    context
        .addFilter("console-headers", new ConsoleHeaders())
        .addMappingForUrlPatterns(null, false, ConsoleHeaders.PATTERN);
    // Issue 20: /metrics exactly (deny by default: token), or not at all (off: Jersey's 404).
    if (settings.metricsAccess() != Settings.MetricsAccess.OFF) {
      BearerVerifier metricsVerifier =
          settings.metricsAccess() == Settings.MetricsAccess.TOKEN ? verifier : null;
      context
          .addServlet("metrics", new MetricsServlet(registry, metricsVerifier, accounts))
          .addMapping(MetricsServlet.PATH);
    }
    ServletRegistration.Dynamic servlet =
        context.addServlet("identity", new ServletContainer(application));
    servlet.addMapping("/*");
    servlet.setLoadOnStartup(1);
    LOG.info("The identity service is up; issuer " + settings.issuer());
  }

  /**
   * Issue 19: which id each configured key has, as rows and digests name them (never a key), so an
   * operator can tell which file holds the key an error or a count names.
   */
  private static void logKeyIds(Settings settings) {
    LOG.info(
        "Key-encryption keys by id: current "
            + KeyId.of(settings.keyEncryptionKey(), KeyId.Purpose.KEY_ENCRYPTION)
            + ", previous "
            + ids(settings.previousKeyEncryptionKeys(), KeyId.Purpose.KEY_ENCRYPTION)
            + ". Secret peppers by id: current "
            + KeyId.of(settings.secretPepper(), KeyId.Purpose.SECRET_PEPPER)
            + ", previous "
            + ids(settings.previousSecretPeppers(), KeyId.Purpose.SECRET_PEPPER));
  }

  private static List<String> ids(List<SecretKey> keys, KeyId.Purpose purpose) {
    return keys.stream().map(key -> KeyId.of(key, purpose)).toList();
  }

  /**
   * The Flyway migrations written in Java, each holding a key from {@code settings} that SQL cannot
   * (V6 row MACs, V11 key-encryption key ids, V13 pepper ids): every node, and every test that
   * opens a database as a node does, runs these.
   */
  public static JavaMigration[] javaMigrations(Settings settings) {
    return new JavaMigration[] {
      new KeyRowMacMigration(settings.keyEncryptionKey()),
      new KeyEncryptionKeyIdMigration(
          settings.keyEncryptionKey(), settings.previousKeyEncryptionKeys()),
      new SecretPepperIdMigration(
          new SecretDigest(settings.secretPepper(), settings.previousSecretPeppers()))
    };
  }

  /** The memory store, or the database's for several nodes (PostgreSQL only). */
  private RateLimiter rateLimiter(Settings settings, Clock clock) {
    if (settings.rateLimitStore() == Settings.RateLimitStore.MEMORY) {
      return RateLimiter.inMemory(clock, settings.tokenRateLimit(), new AuditEvents(database));
    }
    if (!database.isPostgreSql()) {
      throw new InvalidSettingException(
          JndiSettings.RATE_LIMIT_STORE,
          "is 'database', which needs PostgreSQL; this DataSource is another database");
    }
    RateLimiter limiter =
        RateLimiter.inDatabase(
            database.dataSource(), clock, settings.tokenRateLimit(), new AuditEvents(database));
    scheduler.scheduleWithFixedDelay(limiter::removeExpired, 1, 1, TimeUnit.MINUTES);
    return limiter;
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "identity-refresh");
    thread.setDaemon(true);
    return thread;
  }

  @Override
  public void contextDestroyed(ServletContextEvent event) {
    close();
  }
}
