package dev.platform.identity.scope;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.db.Database;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The scope catalog (SPEC 2.6 and ADMIN.md's scopes), kept in the database so that administrators
 * can add scopes, and served from memory.
 *
 * <p>Every read ({@link #grant}, {@link #find}, {@link #list}) uses one immutable snapshot held in
 * an {@code AtomicReference} (STYLE 11), so granting costs a token request no SQL: its one query
 * stays the account's primary-key read (DESIGN decision 2). The snapshot is re-read after every
 * {@link #put} on this node and every interval given to {@link #refreshEvery}, so another node's
 * change is seen within that interval. Scopes are added or redefined, never removed; a node with a
 * snapshot that is a few seconds old at worst refuses a scope added elsewhere just now.
 */
public final class ScopeCatalog {
  /** A sensible {@link #refreshEvery} interval: one small query per node every few seconds. */
  public static final Duration REFRESH_INTERVAL = Duration.ofSeconds(10);

  private static final Logger LOG = Logger.getLogger(ScopeCatalog.class.getName());

  private final Database database;
  private final AtomicLong reads = new AtomicLong();
  private volatile long refreshedNanos;
  private volatile boolean refreshed;
  private final AtomicReference<Snapshot> snapshot =
      new AtomicReference<>(new Snapshot(0, Collections.emptySortedMap()));

  /** Reads the catalog; fails, as start-up should, when the database cannot be read. */
  public ScopeCatalog(Database database) {
    this.database = database;
    refresh();
  }

  /** Every scope, by name. */
  public List<Scope> list() {
    return List.copyOf(snapshot.get().scopes().values());
  }

  /**
   * The scope of this name, from the snapshot. A caller that must see another node's change at once
   * (an administrator who just added a scope elsewhere) calls {@link #refresh} first.
   */
  public Optional<Scope> find(String name) {
    return Optional.ofNullable(snapshot.get().scopes().get(name));
  }

  /**
   * Adds a scope or replaces its description and channels (ADMIN.md {@code PUT /scopes/{scope}}),
   * then re-reads the catalog. Without channels the scope gets {@link Scope#defaultChannels}, also
   * when it replaces one: a PUT states the whole scope.
   *
   * @return true if the scope is new, false if it replaced one
   * @throws InvalidScopeException when the name, description or a channel pattern is invalid
   */
  public boolean put(String name, String description, Optional<ChannelGrant> channels) {
    return putAudited(name, description, channels, created -> Optional.empty());
  }

  /**
   * As {@link #put(String, String, Optional)}, and stores the audit event that {@code audit} makes
   * (told whether the scope is new) in the same transaction.
   */
  public boolean put(
      String name,
      String description,
      Optional<ChannelGrant> channels,
      Function<Boolean, AuditEvent> audit) {
    return putAudited(name, description, channels, created -> Optional.of(audit.apply(created)));
  }

  private boolean putAudited(
      String name,
      String description,
      Optional<ChannelGrant> channels,
      Function<Boolean, Optional<AuditEvent>> audit) {
    Scope definition = Scope.define(name, description, channels);
    boolean created;
    try {
      created = store(definition, audit);
    } catch (RuntimeException e) {
      if (database.read(em -> em.find(Scope.class, name)) == null) {
        throw e;
      }
      // Another node added it at the same moment: ours replaces it (a fresh copy, since the
      // failed transaction may have left the first one half-managed).
      created = store(Scope.define(name, description, channels), audit);
    }
    refresh();
    return created;
  }

  private boolean store(Scope definition, Function<Boolean, Optional<AuditEvent>> audit) {
    return database.write(
        em -> {
          Scope stored = em.find(Scope.class, definition.name());
          if (stored == null) {
            em.persist(definition);
          } else {
            stored.redefine(definition);
          }
          audit.apply(stored == null).ifPresent(e -> e.storeIn(em));
          return stored == null;
        });
  }

  /**
   * Re-reads the catalog now. A read that started earlier but ends later never replaces the result
   * of this one, so a {@link #put} is never undone by a slow periodic refresh.
   */
  public void refresh() {
    long generation = reads.incrementAndGet();
    List<Scope> scopes =
        database.read(em -> em.createNamedQuery(Scope.ALL, Scope.class).getResultList());
    SortedMap<String, Scope> byName = new TreeMap<>();
    scopes.forEach(scope -> byName.put(scope.name(), scope));
    snapshot.accumulateAndGet(
        new Snapshot(generation, Collections.unmodifiableSortedMap(byName)), Snapshot::newer);
    refreshedNanos = System.nanoTime();
    refreshed = true;
  }

  /** Seconds since the last successful read of the catalog; NaN before the first. */
  public double secondsSinceRefresh() {
    return refreshed ? (System.nanoTime() - refreshedNanos) / 1e9 : Double.NaN;
  }

  /**
   * Re-reads the catalog every {@code interval} on {@code scheduler}, which the caller owns and
   * shuts down. A failed read is logged and the last snapshot kept, so a database outage does not
   * stop token issuance, and the schedule goes on.
   */
  public ScheduledFuture<?> refreshEvery(Duration interval, ScheduledExecutorService scheduler) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the refresh interval must be positive: " + interval);
    }
    long millis = interval.toMillis();
    return scheduler.scheduleWithFixedDelay(
        this::refreshOrKeep, millis, millis, TimeUnit.MILLISECONDS);
  }

  private void refreshOrKeep() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Cannot re-read the scope catalog; keeping the last one", e);
    }
  }

  /**
   * The scopes a token gets (SPEC 4.1 {@code scope}, DESIGN "not shown"). Without a requested scope
   * (absent or blank) every allowed scope of the catalog is granted. Otherwise each requested scope
   * must be well formed, in the catalog, and covered by an allowed one ({@link Scope#covers}: an
   * allowed {@code svc:*} covers {@code svc:*} and every catalog scope of {@code svc}). Repeats
   * collapse. Only the snapshot is read: no SQL.
   *
   * @param allowed the account's scopes
   * @param requested the request's space-separated {@code scope} parameter, if any
   * @throws InvalidScopeException naming the first requested scope that cannot be granted, or when
   *     nothing can be granted (RFC 6749 §3.3)
   */
  public GrantedScopes grant(Collection<String> allowed, Optional<String> requested) {
    SortedMap<String, Scope> catalog = snapshot.get().scopes();
    List<Scope> allowedScopes =
        allowed.stream().map(catalog::get).filter(Objects::nonNull).distinct().toList();
    List<String> names = requested.map(ScopeCatalog::words).orElse(List.of());
    List<Scope> granted = new ArrayList<>();
    for (String name : names) {
      granted.add(grantable(name, catalog, allowedScopes));
    }
    if (names.isEmpty()) {
      granted.addAll(allowedScopes);
    }
    if (granted.isEmpty()) {
      throw InvalidScopeException.noneGrantable();
    }
    return new GrantedScopes(
        granted.stream().map(Scope::name).toList(),
        ChannelGrant.union(granted.stream().map(Scope::channels).toList()));
  }

  private static Scope grantable(
      String name, SortedMap<String, Scope> catalog, List<Scope> allowed) {
    Scope.requireWellFormed(name);
    Scope scope = catalog.get(name);
    if (scope == null) {
      throw InvalidScopeException.of(name, "does not exist");
    }
    if (allowed.stream().noneMatch(a -> a.covers(scope))) {
      throw InvalidScopeException.of(name, "is not allowed for this client");
    }
    return scope;
  }

  /** RFC 6749 §3.3: scopes are delimited by spaces; runs of spaces are tolerated. */
  private static List<String> words(String scope) {
    return Arrays.stream(scope.split(" ")).filter(word -> !word.isEmpty()).distinct().toList();
  }

  /** One read of the catalog; {@code generation} orders reads by when they started. */
  private record Snapshot(long generation, SortedMap<String, Scope> scopes) {
    Snapshot newer(Snapshot other) {
      return other.generation > generation ? other : this;
    }
  }
}
