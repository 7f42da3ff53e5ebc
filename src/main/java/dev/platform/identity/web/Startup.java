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
import dev.platform.identity.db.DatabaseGuard;
import dev.platform.identity.db.DatabaseHealth;
import dev.platform.identity.db.Vendor;
import dev.platform.identity.http.ClientAddress;
import dev.platform.identity.http.Incident;
import dev.platform.identity.jose.DpopNonces;
import dev.platform.identity.key.KeyEncryption;
import dev.platform.identity.key.KeyEncryptionKeyIdMigration;
import dev.platform.identity.key.KeyNode;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.KeyRotation;
import dev.platform.identity.key.KeyRowMacMigration;
import dev.platform.identity.key.PrivateKeys;
import dev.platform.identity.key.PublicKeysResource;
import dev.platform.identity.key.PublicKeysServlet;
import dev.platform.identity.key.RsaProvider;
import dev.platform.identity.key.UnknownKeyMapper;
import dev.platform.identity.metrics.MetricsServlet;
import dev.platform.identity.metrics.ServiceMetrics;
import dev.platform.identity.ratelimit.ClientCallLimit;
import dev.platform.identity.ratelimit.RateLimitFilter;
import dev.platform.identity.ratelimit.RateLimiter;
import dev.platform.identity.revoke.Revocations;
import dev.platform.identity.revoke.RevocationsServlet;
import dev.platform.identity.scope.ScopeCatalog;
import dev.platform.identity.token.ClientKeySets;
import dev.platform.identity.token.DiscoveryResource;
import dev.platform.identity.token.TokenEndpoint;
import dev.platform.identity.token.TokenMeters;
import dev.platform.identity.token.TokenServlet;
import dev.platform.identity.token.UsedJtis;
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
import java.util.Map;
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
 * constructor (a node's keys and the token endpoint through {@code KeyNode} and {@code
 * TokenEndpoint}, which the tests build theirs with too) and registers the token servlet at {@code
 * /oauth/token}, the key list, web.xml's error page and the one Jersey servlet at the context root
 * (an exact mapping wins over {@code /*}). Anything that fails here stops the deployment, with a
 * message that says why.
 */
public class Startup implements ServletContextListener {
  private static final Logger LOG = Logger.getLogger(Startup.class.getName());

  private Database database;
  private KeyRotation keyRotation;
  private ScheduledExecutorService scheduler;
  private ScheduledExecutorService databaseProbe;
  private ScheduledExecutorService revocationRefresh;
  private ServiceMetrics serviceMetrics;
  private ClientKeySets clientKeySets;

  @Override
  public void contextInitialized(ServletContextEvent event) {
    try {
      start(event.getServletContext());
    } catch (RuntimeException e) {
      // One line that names the setting is what an operator needs; the stack is at FINE.
      // The container logs the exception thrown from here once more, with its stack and causes
      // (Tomcat 60-70 frames, Payara 170-310 lines), so what is thrown carries neither.
      String reason = reason(e);
      LOG.severe("The identity service cannot start: " + reason);
      LOG.log(Level.FINE, "The identity service cannot start", e);
      close();
      throw new CannotStartException(reason);
    }
  }

  /**
   * The message of this service's own exceptions, which names the setting or resource to fix; for
   * any other (a library's, a bug), its class too and where its stack is.
   */
  private static String reason(RuntimeException e) {
    boolean ours =
        e.getClass().getName().startsWith("dev.platform.identity.") && e.getMessage() != null;
    return ours
        ? e.getMessage()
        : e + " (its stack trace is logged at FINE by " + LOG.getName() + ")";
  }

  private void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
    if (clientKeySets != null) {
      clientKeySets.close();
      clientKeySets = null;
    }
    if (databaseProbe != null) {
      databaseProbe.shutdownNow();
      databaseProbe = null;
    }
    if (revocationRefresh != null) {
      revocationRefresh.shutdownNow();
      revocationRefresh = null;
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
    ProxyWarning.logIfNoProxyIsTrusted(settings.tokens(), settings.limits());
    logKeyIds(settings.secrets());
    SecretDigest digest =
        new SecretDigest(settings.secrets().pepper(), settings.secrets().previousPeppers());
    Clock clock = Clock.systemUTC();
    SecureRandom random = new SecureRandom();
    RsaProvider rsa = RsaProvider.choose(settings.keys().engine());
    KeyEncryption keyEncryption =
        new KeyEncryption(
            settings.secrets().keyEncryptionKey(),
            settings.secrets().previousKeyEncryptionKeys(),
            random,
            rsa);
    // The PKCS#11 token, when one is configured, is opened (and logged in to) first, so
    // a wrong PIN or slot stops the start before the database is changed or an administrator made.
    PrivateKeys privateKeys = PrivateKeys.of(settings.keys(), keyEncryption, clock);
    // Every connection under the bulkhead and every statement under the deadline.
    DatabaseGuard databaseGuard =
        new DatabaseGuard(
            settings.limits().database().concurrency(),
            settings.limits().database().statementTimeout(),
            clock);
    database = Database.fromJndi(databaseGuard, javaMigrations(settings.secrets()));
    DatabaseHealth databaseHealth = DatabaseHealth.of(database, databaseGuard, clock);
    databaseProbe = Executors.newSingleThreadScheduledExecutor(Startup::probeThread);
    databaseHealth.scheduleOn(databaseProbe);
    ServiceAccounts accounts = new ServiceAccounts(database);
    new PepperCheck(database.dataSource()).verify(digest);
    SecretPeppers peppers = new SecretPeppers(accounts, digest);
    peppers.warnOfUnknownPeppers(clock.instant());
    new Bootstrap(accounts, digest, clock, random).run(settings.bootstrap());
    // The one scheduler of the key rotation, the scope refresh, the rate limiter's clean-up and the
    // account counts of /metrics; close() shuts it down. Two threads, so that a slow rotation never
    // delays the scope refresh.
    scheduler = Executors.newScheduledThreadPool(2, Startup::daemon);
    Incident.scheduleFlush(scheduler); // Repeated incidents' counts, once a minute
    KeyNode keys = KeyNode.of(database, privateKeys, settings.keys(), clock, random, scheduler);
    KeyRing keyRing = keys.ring();
    keyRotation = keys.rotation();
    keyRotation.start();

    ScopeCatalog scopes = new ScopeCatalog(database);
    scopes.refreshEvery(ScopeCatalog.REFRESH_INTERVAL, scheduler);

    new AuditRetention(database, settings.operations().auditRetention(), clock)
        .scheduleOn(scheduler);
    BearerVerifier verifier =
        BearerVerifier.builder()
            .issuer(settings.tokens().issuer().toString())
            .clock(clock)
            .keyLocator(keyRing::publicKey)
            .provider(rsa.provider()) // the signer's provider, so identity/rsaProvider = jdk holds
            .build();
    // The one registry of /metrics, passed to what it counts; never the global one.
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // Refusals are audited counted by the minute; the counts of a minute are written soon
    // after it ends. Console sign-ins also go to the audit trail.
    AuditLog audit = new AuditLog(clock, registry, new AuditEvents(database));
    scheduler.scheduleWithFixedDelay(audit::endMinutes, 15, 15, TimeUnit.SECONDS);
    serviceMetrics =
        new ServiceMetrics(accounts, settings.accounts().secretRotation().maxAge(), clock);
    serviceMetrics.bindTo(registry, keyRing, keyRotation, scopes);
    serviceMetrics.countEvery(scheduler);
    databaseGuard.bindTo(registry);
    databaseHealth.bindTo(registry);
    TokenMeters tokenMeters = new TokenMeters(registry);
    // private_key_jwt clients' assertions and DPoP proofs: each jti once, the expired ones deleted
    // every 5 minutes.
    UsedJtis usedAssertions = new UsedJtis(database.dataSource());
    scheduler.scheduleWithFixedDelay(
        () -> {
          usedAssertions.purge(clock.instant());
          usedAssertions.dpopProofs().purge(clock.instant());
        },
        5,
        5,
        TimeUnit.MINUTES);
    // Clients' jwks_uri sets are fetched on ClientKeySets' own threads, refreshed here.
    clientKeySets = new ClientKeySets(settings.clientKeys(), clock, registry, audit);
    scheduler.scheduleWithFixedDelay(clientKeySets::refreshDue, 1, 1, TimeUnit.MINUTES);
    TokenEndpoint.Policy policy =
        new TokenEndpoint.Policy(
            settings.tokens().issuer(),
            settings.tokens().lifetime(),
            settings.tokens().adminLifetime(),
            settings.accounts().secretRotation().maxAge(),
            settings.clientKeys().assertionAudience()
                == Settings.AssertionAudience.ISSUER_OR_TOKEN_ENDPOINT,
            settings.clientKeys().tlsClientAuthorities());
    if (settings.clientKeys().dpopNonces()) {
      // Every node derives the same nonce key from the key-encryption key: no shared write.
      policy =
          policy.withDpopNonces(
              DpopNonces.derivedFrom(
                  settings.secrets().keyEncryptionKey(), clock, DpopNonces.DEFAULT_PERIOD));
    }
    TokenServlet tokenEndpoint =
        TokenEndpoint.build(
            policy,
            accounts,
            digest,
            scopes,
            keyRing,
            usedAssertions,
            clientKeySets::at,
            audit,
            tokenMeters,
            clock);
    RateLimiter rateLimiter = rateLimiter(settings.limits(), clock);
    RateLimitFilter rateLimitFilter =
        new RateLimitFilter(rateLimiter, audit, tokenEndpoint, tokenMeters, registry);

    // Issue 38: the revocations in memory, read on a thread of their own (a stalled database
    // delays nothing else), and the two endpoints where clients authenticate as for a token.
    Revocations revocations =
        new Revocations(
            settings.tokens().issuer().toString(),
            database.dataSource(),
            settings.tokens().lifetime(),
            clock);
    revocations.bindTo(registry);
    revocationRefresh = Executors.newSingleThreadScheduledExecutor(Startup::revocationThread);
    revocations.scheduleOn(revocationRefresh, settings.operations().revocationRefresh());
    TokenEndpoint.ClientCallEndpoints clientCalls =
        TokenEndpoint.clientCalls(
            policy,
            accounts,
            digest,
            usedAssertions,
            clientKeySets::at,
            audit,
            clock,
            verifier,
            revocations,
            tokenMeters);
    FilteredServlet limitedRevocation =
        new FilteredServlet(
            new ClientCallLimit(rateLimiter, audit, "token.revoke.refuse"),
            clientCalls.revocation());
    FilteredServlet limitedIntrospection =
        new FilteredServlet(
            new ClientCallLimit(rateLimiter, audit, "token.introspect.refuse"),
            clientCalls.introspection());

    AdminAuth adminAuth =
        new AdminAuth(
            settings.tokens().issuer(),
            verifier,
            accounts,
            audit,
            settings.accounts().managerGrantableScopes(),
            revocations);
    Console console =
        new Console(
            new ServiceAccountsResource(
                settings.tokens().issuer(),
                accounts,
                digest,
                scopes,
                settings.accounts().secretRotation(),
                clock,
                random,
                clientKeySets::check,
                revocations,
                !settings.clientKeys().tlsClientAuthorities().isEmpty()),
            new ScopesResource(scopes),
            new SigningKeysResource(keyRing, keyRotation, clock),
            new AuditEventsResource(new AuditEvents(database)));
    List<Object> components =
        new ArrayList<>(
            List.of(
                JacksonFeature.withoutExceptionMappers(),
                new Json(),
                new ServerErrorMapper(),
                new RequestBodies(),
                new PathParameters(),
                new HealthResource(databaseHealth, keyRing),
                new UnknownKeyMapper(),
                new PublicKeysResource(keyRing),
                new DiscoveryResource(settings.tokens().issuer(), scopes),
                new OpenApiResource(),
                adminAuth,
                new ApiErrorMapper(),
                new InvalidJsonMapper(),
                console.accounts(),
                console.scopes(),
                console.keys(),
                new SecretPeppersResource(peppers, clock),
                console.audit()));
    // The console's pages, over those same resources and AdminAuth's check.
    components.addAll(
        console.components(
            settings.tokens().issuer(),
            settings.secrets(),
            settings.accounts(),
            settings.operations(),
            database.dataSource(),
            adminAuth,
            rateLimitFilter,
            verifier,
            audit,
            clock,
            random));
    ResourceConfig application = new IdentityApplication(components.toArray());

    // Filter order, decided here and nowhere else: no web.xml declares a filter, and the container
    // runs programmatic mappings in the order they are added. Client-address (every path) runs
    // first, console-headers (the console's paths) next, and the front door (every path)
    // last: it reads a request's body without a thread and then hands the request to the servlet
    // the container matched, itself, since the chain has returned by then. So the token endpoint's
    // rate limit, which needs the body, is part of the token servlet rather than a filter.
    FilterRegistration.Dynamic clientAddress =
        context.addFilter("client-address", new ClientAddress(settings.limits().trustedProxies()));
    clientAddress.setAsyncSupported(true);
    clientAddress.addMappingForUrlPatterns(null, false, "/*");
    FilterRegistration.Dynamic consoleHeaders =
        context.addFilter("console-headers", new ConsoleHeaders());
    consoleHeaders.setAsyncSupported(true);
    consoleHeaders.addMappingForUrlPatterns(null, false, ConsoleHeaders.PATTERN);
    FilteredServlet limitedToken = new FilteredServlet(rateLimitFilter, tokenEndpoint);
    ServletContainer jersey = new ServletContainer(application);
    FilterRegistration.Dynamic frontDoor =
        context.addFilter(
            "front-door",
            new FrontDoor(
                Map.of(
                    BodyLimits.TOKEN_SERVLET,
                    limitedToken,
                    BodyLimits.REVOCATION_SERVLET,
                    limitedRevocation,
                    BodyLimits.INTROSPECTION_SERVLET,
                    limitedIntrospection,
                    BodyLimits.JERSEY_SERVLET,
                    jersey),
                new AddressShares(settings.limits().requestThreadsPerAddress()),
                new SlowBodies(clock),
                registry));
    frontDoor.setAsyncSupported(true);
    frontDoor.addMappingForUrlPatterns(null, false, "/*");

    ServletRegistration.Dynamic token = context.addServlet(BodyLimits.TOKEN_SERVLET, limitedToken);
    token.setAsyncSupported(true);
    token.addMapping("/oauth/token");
    for (Map.Entry<String, FilteredServlet> endpoint :
        Map.of(
                BodyLimits.REVOCATION_SERVLET, limitedRevocation,
                BodyLimits.INTROSPECTION_SERVLET, limitedIntrospection)
            .entrySet()) {
      ServletRegistration.Dynamic registered =
          context.addServlet(endpoint.getKey(), endpoint.getValue());
      registered.setAsyncSupported(true);
      registered.addMapping(
          endpoint.getKey().equals(BodyLimits.REVOCATION_SERVLET)
              ? "/oauth/revoke"
              : "/oauth/introspect");
    }
    ServletRegistration.Dynamic feed =
        context.addServlet("revocations", new RevocationsServlet(revocations));
    feed.setAsyncSupported(true);
    feed.addMapping("/oauth/revocations");
    ServletRegistration.Dynamic publicKeys =
        context.addServlet("public-keys", new PublicKeysServlet(keyRing));
    publicKeys.setAsyncSupported(true);
    publicKeys.addMapping("/api/public-keys");
    context.addServlet("error-page", new ErrorPageServlet()).addMapping(ErrorPageServlet.PATH);
    // /metrics exactly (deny by default: token), or not at all (off: Jersey's 404).
    if (settings.operations().metricsAccess() != Settings.MetricsAccess.OFF) {
      BearerVerifier metricsVerifier =
          settings.operations().metricsAccess() == Settings.MetricsAccess.TOKEN ? verifier : null;
      ServletRegistration.Dynamic metrics =
          context.addServlet(
              "metrics",
              new MetricsServlet(
                  registry, metricsVerifier, accounts, revocations, settings.tokens().issuer()));
      metrics.setAsyncSupported(true);
      metrics.addMapping(MetricsServlet.PATH);
    }
    ServletRegistration.Dynamic servlet = context.addServlet(BodyLimits.JERSEY_SERVLET, jersey);
    servlet.setAsyncSupported(true);
    servlet.addMapping("/*");
    servlet.setLoadOnStartup(1);
    LOG.info("The identity service is up; issuer " + settings.tokens().issuer());
  }

  /**
   * Which id each configured key has, as rows and digests name them (never a key), so an operator
   * can tell which file holds the key an error or a count names.
   */
  private static void logKeyIds(Settings.Secrets settings) {
    LOG.info(
        "Key-encryption keys by id: current "
            + KeyId.of(settings.keyEncryptionKey(), KeyId.Purpose.KEY_ENCRYPTION)
            + ", previous "
            + ids(settings.previousKeyEncryptionKeys(), KeyId.Purpose.KEY_ENCRYPTION)
            + ". Secret peppers by id: current "
            + KeyId.of(settings.pepper(), KeyId.Purpose.SECRET_PEPPER)
            + ", previous "
            + ids(settings.previousPeppers(), KeyId.Purpose.SECRET_PEPPER));
  }

  private static List<String> ids(List<SecretKey> keys, KeyId.Purpose purpose) {
    return keys.stream().map(key -> KeyId.of(key, purpose)).toList();
  }

  /**
   * The Flyway migrations written in Java, each holding a key from {@code settings} that SQL cannot
   * (V6 row MACs, V11 key-encryption key ids, V13 pepper ids): every node, and every test that
   * opens a database as a node does, runs these.
   */
  public static JavaMigration[] javaMigrations(Settings.Secrets settings) {
    return new JavaMigration[] {
      new KeyRowMacMigration(settings.keyEncryptionKey()),
      new KeyEncryptionKeyIdMigration(
          settings.keyEncryptionKey(), settings.previousKeyEncryptionKeys()),
      new SecretPepperIdMigration(new SecretDigest(settings.pepper(), settings.previousPeppers()))
    };
  }

  /** The memory store, or the database's for several nodes (PostgreSQL or MariaDB). */
  private RateLimiter rateLimiter(Settings.Limits settings, Clock clock) {
    if (settings.rateLimitStore() == Settings.RateLimitStore.MEMORY) {
      return RateLimiter.inMemory(clock, settings.tokenRateLimit(), new AuditEvents(database));
    }
    Vendor vendor = database.vendor();
    if (!vendor.sharesRateLimits()) {
      throw new InvalidSettingException(
          JndiSettings.RATE_LIMIT_STORE,
          "is 'database', which needs PostgreSQL or MariaDB; this DataSource is another database");
    }
    RateLimiter limiter =
        RateLimiter.inDatabase(
            database.dataSource(),
            vendor,
            clock,
            settings.tokenRateLimit(),
            new AuditEvents(database));
    scheduler.scheduleWithFixedDelay(limiter::removeExpired, 1, 1, TimeUnit.MINUTES);
    return limiter;
  }

  /** The readiness probe's own thread: a probe that hangs delays nothing else. */
  private static Thread probeThread(Runnable task) {
    Thread thread = new Thread(task, "identity-database-probe");
    thread.setDaemon(true);
    return thread;
  }

  /** The revocations' refresh: a database that stalls holds this thread only. */
  private static Thread revocationThread(Runnable task) {
    Thread thread = new Thread(task, "identity-revocations");
    thread.setDaemon(true);
    return thread;
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
