package dev.platform.identity.metrics;

import dev.platform.identity.account.AccountStatus;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.key.KeyRing;
import dev.platform.identity.key.KeyRingState;
import dev.platform.identity.key.KeyRotation;
import dev.platform.identity.scope.ScopeCatalog;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The service's state as gauges: the key ring and the scope catalog read from memory at each
 * scrape; the accounts by status and the secrets due or expired counted in the database on the
 * scheduler, never by a scrape; JVM and process figures through Micrometer's binders.
 */
public final class ServiceMetrics implements AutoCloseable {
  /** How often the accounts are counted. */
  static final Duration COUNT_INTERVAL = Duration.ofMinutes(1);

  /** A secret is due this long before its maximum age. */
  static final Duration DUE_BEFORE = Duration.ofDays(14);

  private static final Logger LOG = Logger.getLogger(ServiceMetrics.class.getName());

  private final ServiceAccounts accounts;
  private final Optional<Duration> secretMaxAge;
  private final Clock clock;
  private final Map<AccountStatus, AtomicLong> byStatus = new EnumMap<>(AccountStatus.class);
  private final AtomicLong secretsDue = new AtomicLong();
  private final AtomicLong secretsExpired = new AtomicLong();
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public ServiceMetrics(ServiceAccounts accounts, Optional<Duration> secretMaxAge, Clock clock) {
    this.accounts = accounts;
    this.secretMaxAge = secretMaxAge;
    this.clock = clock;
    for (AccountStatus status : AccountStatus.values()) {
      byStatus.put(status, new AtomicLong());
    }
  }

  /** Binds every gauge to {@code registry}. */
  public void bindTo(
      MeterRegistry registry, KeyRing ring, KeyRotation rotation, ScopeCatalog scopes) {
    bindJvm(registry);
    bindKeyRing(registry, ring, rotation);
    Gauge.builder(
            "identity.scope.catalog.refresh.age.seconds", scopes, ScopeCatalog::secondsSinceRefresh)
        .description("Seconds since the last successful scope-catalog read")
        .strongReference(true)
        .register(registry);
    bindAccountsTo(registry);
  }

  /** The ring read from memory at each scrape, and the rotation's failed refreshes. */
  private static void bindKeyRing(MeterRegistry registry, KeyRing ring, KeyRotation rotation) {
    keyGauge(
        registry,
        "identity.signing.keys.listed",
        "Keys in the published list",
        ring,
        KeyRingState::listed);
    keyGauge(
        registry,
        "identity.signing.key.current.age.seconds",
        "Seconds the current key has signed",
        ring,
        KeyRingState::currentSigningSeconds);
    keyGauge(
        registry,
        "identity.signing.key.current.end.seconds",
        "Seconds until the current key's planned end (its start plus the rotation interval)",
        ring,
        KeyRingState::secondsUntilPlannedEnd);
    keyGauge(
        registry,
        "identity.signing.key.next.activation.seconds",
        "Seconds until the next scheduled key signs; NaN when none is scheduled",
        ring,
        KeyRingState::secondsUntilNextActivation);
    keyGauge(
        registry,
        "identity.signing.keys.refresh.age.seconds",
        "Seconds since the last successful key-ring refresh",
        ring,
        KeyRingState::secondsSinceRefresh);
    FunctionCounter.builder(
            "identity.signing.keys.refresh.failures", rotation, KeyRotation::refreshFailures)
        .description("Scheduled key-ring refreshes that failed")
        .register(registry); // held weakly: Startup holds the rotation while the service runs
  }

  /** The gauges of the scheduled counts alone. */
  void bindAccountsTo(MeterRegistry registry) {
    byStatus.forEach(
        (status, count) ->
            Gauge.builder("identity.accounts", count, AtomicLong::get)
                .description("Service accounts by status, counted every minute")
                .tag("status", status.name().toLowerCase(Locale.ROOT))
                .strongReference(true)
                .register(registry));
    if (secretMaxAge.isPresent()) {
      secretGauge(registry, "due", secretsDue);
      secretGauge(registry, "expired", secretsExpired);
    }
  }

  private void bindJvm(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  private static void keyGauge(
      MeterRegistry registry,
      String name,
      String description,
      KeyRing ring,
      ToDoubleFunction<KeyRingState> figure) {
    Gauge.builder(name, ring, r -> figure.applyAsDouble(r.state()))
        .description(description)
        .strongReference(true)
        .register(registry);
  }

  private static void secretGauge(MeterRegistry registry, String state, AtomicLong count) {
    Gauge.builder("identity.account.secrets", count, AtomicLong::get)
        .description(
            "Current secrets of active accounts past identity/secretMaxAge (expired), or within"
                + " 14 days of it (due), counted every minute")
        .tag("state", state)
        .strongReference(true)
        .register(registry);
  }

  /**
   * Removes the GC binder's notification listeners from the JVM's beans, which would otherwise keep
   * this web application's classes after an undeployment.
   */
  @Override
  public void close() {
    gc.close();
  }

  /** Counts now, then every {@link #COUNT_INTERVAL} on {@code scheduler}, which its owner stops. */
  public void countEvery(ScheduledExecutorService scheduler) {
    long period = COUNT_INTERVAL.toMillis();
    scheduler.scheduleWithFixedDelay(this::countOrKeep, 0, period, TimeUnit.MILLISECONDS);
  }

  private void countOrKeep() {
    try {
      count();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Cannot count the accounts for /metrics; keeping the last count", e);
    }
  }

  /** Counts the accounts by status, and the secrets due or expired, in the database. */
  void count() {
    accounts.countByStatus().forEach((status, count) -> byStatus.get(status).set(count));
    if (secretMaxAge.isPresent()) {
      Instant expiredBefore = clock.instant().minus(secretMaxAge.get());
      Instant dueBefore = expiredBefore.plus(DUE_BEFORE);
      long expired = accounts.countActiveWithSecretBefore(expiredBefore);
      secretsExpired.set(expired);
      secretsDue.set(accounts.countActiveWithSecretBefore(dueBefore) - expired);
    }
  }
}
