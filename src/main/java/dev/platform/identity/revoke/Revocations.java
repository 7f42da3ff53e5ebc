package dev.platform.identity.revoke;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.persistence.EntityManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The revocations as this node knows them: one immutable snapshot that request threads only read
 * (never the database), refreshed on a schedule from the database whenever its version moved, and
 * updated at once by the revocations this node makes itself. Revocations are never undone, only
 * outlived, so the snapshot a refresh reads is joined with what the node holds rather than put in
 * its place: a revocation made here while a refresh was reading is kept. A database that stalls or
 * fails leaves the snapshot as it was, and the next refresh tries again.
 */
public final class Revocations {
  private static final Logger LOG = Logger.getLogger(Revocations.class.getName());

  /**
   * How many revoked jtis one account's client may have in force: at 100 and about 64 bytes each,
   * an account adds at most about 6.4 KB to the feed, however fast its client revokes.
   */
  public static final int LIVE_JTIS_PER_ACCOUNT = 100;

  /**
   * How many revoked jtis all clients together may have in force (about 1.3 MB of feed, a third of
   * what a verifier reads by default), so that many accounts, each under its own cap, cannot push
   * the feed past what verifiers read either. Administrators' revocations are not counted against
   * either cap, nor held back by them.
   */
  public static final int LIVE_JTIS_IN_ALL = 20_000;

  private final RevocationStore store;
  private final Duration longestLifetime;
  private final RevocationStore.Caps caps;
  private final Clock clock;
  private final AtomicReference<RevocationSnapshot> snapshot;
  private volatile boolean failing;
  private volatile Instant lastRead;
  private final AtomicLong storedTokens = new AtomicLong();
  private final AtomicLong storedAccounts = new AtomicLong();
  private final AtomicLong capped = new AtomicLong();

  /**
   * @param issuer the feed's {@code issuer}
   * @param longestLifetime the longest lifetime a token can have (identity/tokenLifetime): how long
   *     an account's cut-off, or a jti revoked without its exp, is kept
   */
  public Revocations(String issuer, DataSource dataSource, Duration longestLifetime, Clock clock) {
    this(issuer, dataSource, longestLifetime, clock, LIVE_JTIS_PER_ACCOUNT);
  }

  Revocations(
      String issuer,
      DataSource dataSource,
      Duration longestLifetime,
      Clock clock,
      int liveJtisPerAccount) {
    this(
        issuer,
        dataSource,
        longestLifetime,
        clock,
        new RevocationStore.Caps(liveJtisPerAccount, LIVE_JTIS_IN_ALL));
  }

  Revocations(
      String issuer,
      DataSource dataSource,
      Duration longestLifetime,
      Clock clock,
      RevocationStore.Caps caps) {
    this.store = new RevocationStore(dataSource);
    this.longestLifetime = longestLifetime;
    this.caps = caps;
    this.clock = clock;
    this.snapshot = new AtomicReference<>(RevocationSnapshot.empty(issuer));
    this.lastRead = clock.instant();
  }

  /**
   * The meters of this node's revocations (docs/observing.md): what it holds in force, the feed's
   * size, how old its last read of the database is, and what it stored. Gauges read memory only.
   */
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("identity.revocations.in.force", this, r -> r.snapshot.get().tokens().size())
        .description("Revocations this node holds in force, by kind: token (a jti), account")
        .tag("kind", "token")
        .register(registry);
    Gauge.builder("identity.revocations.in.force", this, r -> r.snapshot.get().accounts().size())
        .description("Revocations this node holds in force, by kind: token (a jti), account")
        .tag("kind", "account")
        .register(registry);
    Gauge.builder("identity.revocation.feed.bytes", this, r -> r.feed().body().length)
        .description("Size of GET /oauth/revocations as this node serves it")
        .register(registry);
    Gauge.builder(
            "identity.revocations.refresh.age.seconds",
            this,
            r -> Duration.between(r.lastRead, r.clock.instant()).toMillis() / 1000.0)
        .description("Seconds since this node last read the revocations' version in the database")
        .register(registry);
    storedCounter(registry, "token", storedTokens);
    storedCounter(registry, "account", storedAccounts);
    storedCounter(registry, "capped", capped);
  }

  private static void storedCounter(MeterRegistry registry, String kind, AtomicLong count) {
    FunctionCounter.builder("identity.revocations.stored", count, AtomicLong::get)
        .description(
            "Revocations this node stored: token (a jti), account (a cut-off), capped (a jti"
                + " stored as its account's cut-off past the account's cap)")
        .tag("kind", kind)
        .register(registry);
  }

  /**
   * Whether a token is revoked, from memory alone.
   *
   * @param clientId the token's client_id (or sub)
   * @param jti its jti, or null
   * @param issuedAt its iat, or null: a token without iat is revoked by any cut-off of its account
   */
  public boolean isRevoked(String clientId, String jti, Instant issuedAt) {
    return snapshot.get().isRevoked(clientId, jti, issuedAt);
  }

  /**
   * Revokes one token of a client, at its request, until {@code expiresAt}, its exp; stored before
   * this returns, and known to this node at once. An account has at most {@link
   * #LIVE_JTIS_PER_ACCOUNT} revoked jtis in force, and all accounts together {@link
   * #LIVE_JTIS_IN_ALL}: past either, a revocation becomes a cut-off of every token of the account
   * issued until then, which covers this one (see {@link Revoked}), so that no client, and no
   * number of clients, makes the feed grow without end. A token revoked already stores nothing.
   *
   * @param issuedAt the token's iat, or null when it is not known: the cut-off that may take the
   *     jti's place then starts no earlier than the second after it
   * @throws IllegalStateException when the database cannot store it (nothing is revoked then)
   */
  public Revoked revoke(String jti, String clientId, Instant expiresAt, Instant issuedAt) {
    return revoke(jti, clientId, expiresAt, issuedAt, caps);
  }

  private Revoked revoke(
      String jti, String clientId, Instant expiresAt, Instant issuedAt, RevocationStore.Caps caps) {
    Instant now = clock.instant();
    RevokedToken token = new RevokedToken(jti, clientId, expiresAt);
    if (issuedAt != null && isRevoked(clientId, jti, issuedAt)) {
      // revoked already (api.md: "nothing revoked"): a cut-off again would end newer tokens too
      return new Revoked(token, Optional.empty());
    }
    Instant latest = issuedAt != null && issuedAt.isAfter(now) ? issuedAt : now;
    AccountCutoff instead = AccountCutoff.at(clientId, latest, longestLifetime);
    Optional<AccountCutoff> cutoff;
    try {
      cutoff = store.revoke(token, now, caps, instead);
    } catch (SQLException e) {
      throw new IllegalStateException("the revocation cannot be stored: " + e.getMessage(), e);
    }
    if (cutoff.isPresent()) {
      capped.incrementAndGet();
      snapshot.updateAndGet(current -> current.with(cutoff.get(), now));
    } else {
      storedTokens.incrementAndGet();
      snapshot.updateAndGet(current -> current.with(token, now));
    }
    return new Revoked(token, cutoff);
  }

  /** {@link #revoke(String, String, Instant, Instant)} of a token whose iat is not known. */
  public Revoked revoke(String jti, String clientId, Instant expiresAt) {
    return revoke(jti, clientId, expiresAt, null);
  }

  /**
   * What a revocation stored.
   *
   * @param token the token revoked, with the exp until which its revocation is kept
   * @param cutoff present when a cap was reached ({@link #LIVE_JTIS_PER_ACCOUNT}, {@link
   *     #LIVE_JTIS_IN_ALL}): then not the jti but this cut-off of every token of the account issued
   *     until now was stored (the client's other tokens are revoked with it; it asks for a new one)
   */
  public record Revoked(RevokedToken token, Optional<AccountCutoff> cutoff) {
    /**
     * The audit line's details: the jti, who revoked it, the exp it is kept until, and when the cap
     * turned it into a cut-off, {@code tokens_revoked_before}.
     */
    public Map<String, String> details(String by) {
      Map<String, String> details = new LinkedHashMap<>();
      details.put("jti", token.jti());
      details.put("by", by);
      details.put("exp", token.expiresAt().toString());
      cutoff.ifPresent(c -> details.put("tokens_revoked_before", c.notBefore().toString()));
      return details;
    }
  }

  /**
   * An administrator's revocation of a token known only by its jti: kept until the latest exp a
   * token issued now could have, since its own exp is not known. Always stored as the jti, whatever
   * the caps: the jti may be another account's than the one named (none is stored to check it
   * against), and an administrator's revocation must revoke the token it names.
   */
  public Revoked revokeByJti(String jti, String clientId) {
    return revoke(
        jti, clientId, clock.instant().plus(longestLifetime), null, RevocationStore.Caps.NONE);
  }

  /**
   * The cut-off of every token of {@code clientId} issued until now ({@link AccountCutoff#at}), not
   * yet stored: {@link #store} stores it in an account change's transaction, and {@link #remember}
   * makes it known here once that has committed.
   */
  public AccountCutoff cutoffNow(String clientId) {
    return AccountCutoff.at(clientId, clock.instant(), longestLifetime);
  }

  /**
   * Stores {@code cutoff} in the transaction of {@code em}, which holds the account row's lock (an
   * account's deactivation, deletion, secret rotation or "revoke all" commits with it).
   */
  public void store(EntityManager em, AccountCutoff cutoff) {
    store.cutOff(em, cutoff);
  }

  /** A cut-off this node has committed: known here at once, to others at their next refresh. */
  public void remember(AccountCutoff cutoff) {
    storedAccounts.incrementAndGet();
    Instant now = clock.instant();
    snapshot.updateAndGet(current -> current.with(cutoff, now));
  }

  /** The feed as it stands. */
  FeedDocument feed() {
    return snapshot.get().feed();
  }

  /**
   * Reads the database when its version moved (one primary-key read when it did not) and drops what
   * has expired. Never throws: a failure is logged once until a refresh succeeds again.
   */
  public void refresh() {
    try {
      RevocationSnapshot held = snapshot.get();
      if (store.version() != held.version()) {
        RevocationStore.Rows rows = store.read();
        snapshot.updateAndGet(current -> joined(rows, current, clock.instant()));
      } else {
        Instant now = clock.instant();
        snapshot.updateAndGet(current -> current.pruned(now));
      }
      lastRead = clock.instant();
      if (failing) {
        failing = false;
        LOG.info("The revocations are read from the database again");
      }
    } catch (SQLException | RuntimeException e) {
      if (!failing) {
        failing = true;
        LOG.warning(
            "The revocations cannot be read from the database; this node keeps what it knows and"
                + " tries again at every refresh: "
                + e.getMessage());
      }
    }
  }

  /** What the database holds, with what this node knows besides (revocations are only added). */
  private static RevocationSnapshot joined(
      RevocationStore.Rows rows, RevocationSnapshot current, Instant now) {
    List<RevokedToken> tokens = new ArrayList<>(rows.tokens());
    tokens.addAll(current.tokens().values());
    List<AccountCutoff> accounts = new ArrayList<>(rows.accounts());
    accounts.addAll(current.accounts().values());
    long version = Math.max(rows.version(), current.version());
    return RevocationSnapshot.of(current.issuer(), version, tokens, accounts, now);
  }

  /** Deletes the rows whose covered tokens have all expired. Never throws. */
  public void purge() {
    try {
      store.purge(clock.instant());
    } catch (SQLException | RuntimeException e) {
      LOG.warning(
          "Expired revocations could not be deleted; the next run tries: " + e.getMessage());
    }
  }

  /**
   * Reads the database once now (a failure stops nothing: the schedule tries again), then refreshes
   * every {@code interval} and purges every 10 minutes on {@code scheduler}, which should be this
   * feature's own: a stalled database then delays nothing else.
   */
  public void scheduleOn(ScheduledExecutorService scheduler, Duration interval) {
    refresh();
    long millis = interval.toMillis();
    scheduler.scheduleWithFixedDelay(this::refresh, millis, millis, TimeUnit.MILLISECONDS);
    scheduler.scheduleWithFixedDelay(this::purge, 1, 10, TimeUnit.MINUTES);
  }
}
