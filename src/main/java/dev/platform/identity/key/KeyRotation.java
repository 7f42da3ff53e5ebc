package dev.platform.identity.key;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.Settings.KeySchedule;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The rotation schedule (DESIGN decision 4) and the operators' key operations (ADMIN.md "Signing
 * keys"). The first start creates a key that signs at once. A key that has signed for the rotation
 * interval less the pre-publication gets a successor, published at once and signing from the end of
 * the interval; the old key stays listed for the retention after that. Every node checks on each
 * refresh; the unique schedule slot lets exactly one of them create the successor.
 */
public final class KeyRotation implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(KeyRotation.class.getName());

  /**
   * A key out of the list this long is deleted: every token it signed expired long before (the
   * retention is at least the token lifetime), and the audit log keeps its kid.
   */
  static final Duration PRUNE_AFTER = Duration.ofDays(30);

  /** The clock difference between nodes that {@link #tokenGrace()} allows for. */
  static final Duration TOKEN_GRACE_SKEW = Duration.ofSeconds(5);

  /**
   * How long a key another node made may be missing from this node's view of the token before it is
   * taken for lost and replaced. A module's view of objects another process made can lag
   * (SoftHSM2's file store rereads a token when it notices the change; an HSM cluster replicates
   * between its partitions), and a node that replaced a key the moment it missed it would rotate a
   * key every other node signs with.
   */
  static final Duration LOST_KEY_GRACE = Duration.ofSeconds(30);

  /** Rows deleted per check at most, so a large backlog cannot stall one refresh. */
  static final int PRUNE_BATCH = 100;

  private final SigningKeys keys;
  private final KeyRing ring;
  private final PrivateKeys privateKeys;
  private final KeyEncryption encryption;
  private final KeySchedule schedule;
  private final int keySize;
  private final int maxPublishedKeys;
  private final Clock clock;
  private final AuditEvent.Source system;
  private final SecureRandom random;
  private final ScheduledExecutorService scheduler;
  private ScheduledFuture<?> refresh;
  private final AtomicLong refreshFailures = new AtomicLong();

  /**
   * Built by {@link KeyNode#of}, beside the ring it refreshes.
   *
   * @param privateKeys where new keys are made, and old ones deleted from a token
   * @param scheduler the daemon scheduler that runs the refresh; its owner shuts it down
   */
  KeyRotation(
      SigningKeys keys,
      KeyRing ring,
      PrivateKeys privateKeys,
      Settings.Keys settings,
      Clock clock,
      SecureRandom random,
      ScheduledExecutorService scheduler) {
    this.keys = keys;
    this.ring = ring;
    this.privateKeys = privateKeys;
    this.encryption = privateKeys.encryption();
    this.schedule = settings.schedule();
    this.keySize = settings.size();
    this.maxPublishedKeys = settings.maxPublished();
    this.clock = clock;
    this.system = AuditEvent.Source.system(clock);
    this.random = random;
    this.scheduler = scheduler;
  }

  /**
   * Creates the first key if there is none, loads the ring (which fails when the key-encryption key
   * is wrong), then refreshes and rotates on {@link KeySchedule#refresh()} on the scheduler.
   */
  public synchronized void start() {
    rotateIfDue();
    long period = schedule.refresh().toMillis();
    refresh = scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
  }

  /** Stops the refresh (interrupting one under way); the scheduler stays its owner's. */
  @Override
  public synchronized void close() {
    if (refresh != null) {
      refresh.cancel(true);
      refresh = null;
    }
  }

  /** How many scheduled refreshes have failed since this node started. */
  public long refreshFailures() {
    return refreshFailures.get();
  }

  private void tick() {
    try {
      rotateIfDue();
    } catch (RuntimeException e) {
      refreshFailures.incrementAndGet();
      LOG.log(Level.WARNING, "Refreshing the signing keys failed; trying again later", e);
    }
  }

  /**
   * The scheduled step: reloads the ring, re-encrypts the keys sealed under a previous
   * key-encryption key ({@link #reseal}), then creates the first key or the next one if it is due,
   * deletes the keys out of the list from the token and deletes some keys long out of the list from
   * the database. Never refused by {@code maxPublishedKeys}: the schedule lists at most two keys of
   * its own, and operators' rotations leave it a place.
   *
   * @return whether this node created a key
   */
  public boolean rotateIfDue() {
    ring.refresh();
    ring.unopenedKey().filter(this::isLost).ifPresent(this::replaceUnopened);
    if (reseal(ring.rows()) > 0) {
      ring.refresh();
    }
    Instant now = now();
    boolean created = createIfDue(ring.rows(), now);
    privateKeys.discardUnlisted(ring.rows(), now, tokenGrace());
    if (prune(ring.rows(), now) > 0) {
      ring.refresh();
    }
    return created;
  }

  /** Whether the unopened key {@code kid} was made longer than {@link #LOST_KEY_GRACE} ago. */
  private boolean isLost(String kid) {
    Instant now = now();
    return ring.rows().stream()
        .filter(key -> key.kid().equals(kid))
        .anyMatch(key -> !now.isBefore(key.createdAt().plus(LOST_KEY_GRACE)));
  }

  /**
   * The key that should sign now is not in its token (the token was reset, restored from an older
   * backup, or its object deleted by hand), so nothing can sign, not even the token of an
   * administrator who would rotate it. A new key signs at once instead, as an immediate rotation
   * would make it; the lost key stays listed for the retention, so the tokens it signed still
   * verify. Under the lock, and only while that key is still the one that should sign: the nodes
   * that find it so at once make one successor between them.
   */
  private void replaceUnopened(String kid) {
    Optional<SigningKey> added =
        newKey(
            material ->
                keys.addInTurn(
                    stored ->
                        SigningKey.currentAt(stored, latest(now(), newestCreation(stored)))
                                .filter(key -> key.kid().equals(kid))
                                .isPresent()
                            ? successor(stored, material, true, null, false)
                            : null,
                    key ->
                        system.event(
                            "key.rotate.immediate",
                            key.kid(),
                            null,
                            Map.of("replaces", kid, "reason", "private key not in the token"))));
    ring.refresh();
    added.ifPresent(
        key ->
            LOG.severe(
                "Signing key "
                    + kid
                    + " should sign, but its token does not hold it; signing key "
                    + key.kid()
                    + " replaces it at once"));
  }

  /**
   * Seals each of {@code rows} that is not under the current key-encryption key anew under it, one
   * compare-and-set each; a row another node changed first is left to it. A node still on the old
   * current key during a rolling change does the same the other way round, which keeps the count of
   * such rows above 0 until every node has the new current key.
   *
   * @return how many rows this node re-encrypted
   */
  int reseal(List<SigningKey> rows) {
    String current = encryption.current().id();
    List<SigningKey> previous = rows.stream().filter(key -> !current.equals(key.kekId())).toList();
    int resealed =
        (int)
            previous.stream()
                .filter(
                    key ->
                        keys.reseal(
                            key,
                            system.event(
                                "key.reencrypt",
                                key.kid(),
                                null,
                                Map.of("from_kek_id", key.kekId(), "to_kek_id", current))))
                .count();
    if (resealed > 0) {
      LOG.info(
          "Re-encrypted "
              + resealed
              + " signing keys under key-encryption key "
              + current
              + " (they were under "
              + String.join(", ", previous.stream().map(SigningKey::kekId).distinct().toList())
              + ")");
    }
    return resealed;
  }

  /**
   * How long after a key leaves the list its private half stays in the token. A key revoked on one
   * node signs on the others until their next refresh; two refreshes and a few seconds of clock
   * difference between nodes cover that.
   */
  private Duration tokenGrace() {
    return schedule.refresh().multipliedBy(2).plus(TOKEN_GRACE_SKEW);
  }

  /** Deletes up to {@link #PRUNE_BATCH} keys out of the list for {@link #PRUNE_AFTER}. */
  int prune(List<SigningKey> rows, Instant now) {
    Instant before = now.minus(PRUNE_AFTER);
    List<String> old =
        rows.stream()
            .filter(key -> !key.isListedAt(now) && key.leftListBefore(before))
            .limit(PRUNE_BATCH)
            .map(SigningKey::kid)
            .toList();
    if (old.isEmpty()) {
      return 0;
    }
    int removed = keys.remove(old);
    LOG.info("Deleted " + removed + " signing keys out of the list since before " + before);
    return removed;
  }

  /**
   * Creates a key if {@code rows}, as this node last read them, call for one at {@code now}.
   * Nothing here checks the rows again: when several nodes decide alike, the schedule slot lets one
   * win.
   */
  boolean createIfDue(List<SigningKey> rows, Instant now) {
    if (rows.stream().anyMatch(key -> key.isPendingAt(now))) {
      return false;
    }
    Optional<SigningKey> current = SigningKey.currentAt(rows, now);
    if (current.isEmpty()) {
      return create(SigningKey.slotAfterNewest(rows), null, now, now);
    }
    SigningKey predecessor = current.get();
    Instant end = predecessor.activeFrom().plus(schedule.rotationInterval());
    if (now.isBefore(end.minus(schedule.prePublication()))) {
      return false;
    }
    Instant activeFrom = latest(end, now.plus(schedule.prePublication()));
    return create(predecessor.successorSlot(), predecessor.kid(), now, activeFrom);
  }

  private boolean create(String slot, String predecessor, Instant now, Instant activeFrom) {
    Optional<SigningKey> created =
        newKey(
            material ->
                keys.add(
                    stored -> {
                      if (predecessor != null) {
                        find(stored, predecessor).expireAt(activeFrom.plus(schedule.retention()));
                      }
                      return SigningKey.create(material, slot, now, activeFrom);
                    },
                    key ->
                        system.event(
                            "key.publish",
                            key.kid(),
                            null,
                            Map.of("active_from", activeFrom.toString()))));
    ring.refresh();
    LOG.info(
        created
            .map(key -> "Signing key " + key.kid() + " published; it signs from " + activeFrom)
            .orElse("Another node created the next signing key (schedule slot " + slot + ")"));
    return created.isPresent();
  }

  /**
   * ADMIN.md {@code POST /signing-keys/rotate}: a new key, published now. It signs after the
   * pre-publication time, or at once when {@code immediate} (an emergency: verifiers that cached
   * the list meet an unknown kid and must fetch it again). Keys published but not yet signing are
   * withdrawn; the current key stays listed for the retention after its last signature.
   *
   * @throws TooManyKeysException when the list would then hold more than {@code maxPublishedKeys}
   *     less the place kept for the schedule's next key; nothing changed
   */
  public SigningKey rotate(boolean immediate) {
    return rotate(immediate, system);
  }

  /**
   * As {@link #rotate(boolean)}, the new key recorded in the audit trail as {@code operator}'s
   * {@code key.rotate} or {@code key.rotate.immediate}, in the transaction that adds it.
   */
  public SigningKey rotate(boolean immediate, AuditEvent.Source operator) {
    // Refused before a key is made, so a refusal costs a read, not an RSA key; the
    // check under the lock below still decides.
    List<SigningKey> stored = keys.all();
    checkRoomFor(stored, latest(now(), newestCreation(stored)));
    SigningKey key =
        successor(
            immediate,
            null,
            added ->
                operator.event(
                    immediate ? "key.rotate.immediate" : "key.rotate",
                    added.kid(),
                    null,
                    Map.of("active_from", added.activeFrom().toString())));
    ring.refresh();
    LOG.info(
        "Signing key "
            + key.kid()
            + " published by an operator; it signs from "
            + key.activeFrom()
            + (immediate ? " (at once)" : ""));
    return key;
  }

  /** ADMIN.md {@code POST /signing-keys/rotate}: {@code rotate(false)}. */
  public SigningKey rotate() {
    return rotate(false);
  }

  /**
   * ADMIN.md {@code POST /signing-keys/{kid}/revoke}, for a compromised key: it leaves the list and
   * the single lookup at once (on other nodes within one refresh). If it was signing, a new key
   * signs at once.
   *
   * @return the revoked key; empty when there is no key {@code kid}
   * @throws AlreadyRevokedException when the key is revoked already (by a concurrent revocation)
   */
  public Optional<SigningKey> revoke(String kid) {
    return revoke(kid, system);
  }

  /**
   * As {@link #revoke(String)}, recorded in the audit trail as {@code operator}'s {@code
   * key.revoke} (and the successor of a signing key as its {@code key.rotate.immediate}), each in
   * the transaction that makes the change.
   */
  public Optional<SigningKey> revoke(String kid, AuditEvent.Source operator) {
    Instant now = now();
    boolean signing =
        SigningKey.currentAt(keys.all(), now).filter(key -> key.kid().equals(kid)).isPresent();
    if (signing) {
      successor(
          true,
          kid,
          added ->
              operator.event("key.rotate.immediate", added.kid(), null, Map.of("revoked", kid)));
    }
    Optional<SigningKey> revoked =
        keys.changeInTurn(
            kid,
            key -> {
              if (key.revokedAt().isPresent() && !signing) {
                throw new AlreadyRevokedException(kid);
              }
              key.revoke(now);
            },
            operator.event("key.revoke", kid, null, Map.of()));
    ring.refresh();
    revoked.ifPresent(key -> LOG.warning("Signing key " + kid + " revoked"));
    return revoked;
  }

  /**
   * In one transaction: revokes {@code revoked} if given, withdraws the keys that have not signed
   * yet, ends the current key's signing and adds its successor. Tried again if another node's
   * scheduled rotation took the slot in between (that one does not wait for the lock).
   */
  private SigningKey successor(
      boolean immediate, String revoked, Function<SigningKey, AuditEvent> audit) {
    for (int attempt = 0; attempt < 3; attempt++) {
      Optional<SigningKey> added =
          newKey(
              material ->
                  keys.addInTurn(stored -> successor(stored, material, immediate, revoked), audit));
      if (added.isPresent()) {
        return added.get();
      }
    }
    throw new IllegalStateException("the signing keys changed concurrently thrice; try again");
  }

  /**
   * Makes a key where {@code identity/keyStore} says and stores it by {@code add}. When it is not
   * stored (another node took the slot, or the change was refused or failed), its private half is
   * deleted from its token, if it is in one: nothing names it, so nothing would ever delete it.
   */
  private Optional<SigningKey> newKey(Function<KeyMaterial, Optional<SigningKey>> add) {
    KeyMaterial material = privateKeys.generate(keySize, random);
    Optional<SigningKey> added;
    try {
      added = add.apply(material);
    } catch (RuntimeException e) {
      discardUnlessStored(material);
      throw e;
    }
    if (added.isEmpty()) {
      privateKeys.discard(material);
    }
    return added;
  }

  /**
   * After a failed store: a commit can fail after the database made it durable, and a stored key
   * whose private half is gone would stop the signing when it became current. So it is deleted only
   * once the database says it has no such row; when that cannot be asked, it stays.
   */
  private void discardUnlessStored(KeyMaterial material) {
    try {
      if (keys.all().stream().noneMatch(key -> key.kid().equals(material.kid()))) {
        privateKeys.discard(material);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Signing key " + material.kid() + " may be unused in the token", e);
    }
  }

  /**
   * Under the lock, from the keys as stored now. {@code now} is read here, after the lock, and
   * never earlier than a stored key's creation: a key that another rotation made sign at once is
   * then current, never taken for pending and withdrawn after it signed.
   */
  private SigningKey successor(
      List<SigningKey> stored, KeyMaterial material, boolean immediate, String revoked) {
    return successor(stored, material, immediate, revoked, revoked == null);
  }

  private SigningKey successor(
      List<SigningKey> stored,
      KeyMaterial material,
      boolean immediate,
      String revoked,
      boolean checkRoom) {
    Instant now = latest(now(), newestCreation(stored));
    Instant activeFrom = immediate ? now : now.plus(schedule.prePublication());
    Instant expiry = lastSignature(now, activeFrom).plus(schedule.retention());
    if (checkRoom) {
      checkRoomFor(stored, now);
    }
    Optional<SigningKey> current = SigningKey.currentAt(stored, now);
    if (revoked != null) {
      SigningKey compromised = find(stored, revoked);
      if (compromised.revokedAt().isPresent()) {
        throw new AlreadyRevokedException(revoked); // a concurrent revocation came first
      }
      compromised.revoke(now);
    }
    stored.stream().filter(key -> key.isPendingAt(now)).forEach(key -> key.retire(now));
    current.filter(key -> key.revokedAt().isEmpty()).ifPresent(key -> key.expireAt(expiry));
    String slot =
        current.map(SigningKey::successorSlot).orElseGet(() -> SigningKey.slotAfterNewest(stored));
    return SigningKey.create(material, slot, now, activeFrom);
  }

  /**
   * Each immediate rotation keeps the old key listed for the retention, so a burst of them grew the
   * list past what verifiers accept. A rotation withdraws the pending keys and adds one; one place
   * below the cap stays free for the schedule's next key, which is never refused.
   */
  private void checkRoomFor(List<SigningKey> stored, Instant now) {
    List<SigningKey> listed = stored.stream().filter(key -> key.isListedAt(now)).toList();
    long after = listed.stream().filter(key -> !key.isPendingAt(now)).count() + 1;
    if (after > maxPublishedKeys - 1) {
      Instant leaves =
          listed.stream()
              .map(key -> key.expiresAt().orElse(null))
              .filter(Objects::nonNull)
              .min(Instant::compareTo)
              .orElse(null);
      throw new TooManyKeysException(listed.size(), maxPublishedKeys, leaves);
    }
  }

  private static Instant newestCreation(List<SigningKey> stored) {
    return stored.stream().map(SigningKey::createdAt).max(Instant::compareTo).orElse(Instant.MIN);
  }

  /**
   * The last moment the old key may sign: when the new one starts, or, for a key that starts at
   * once, when every node has refreshed.
   */
  private Instant lastSignature(Instant now, Instant activeFrom) {
    return activeFrom.equals(now) ? now.plus(schedule.refresh()) : activeFrom;
  }

  /** The time, to the microsecond, as both databases store it. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  private static SigningKey find(List<SigningKey> stored, String kid) {
    return stored.stream()
        .filter(key -> key.kid().equals(kid))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("signing key " + kid + " disappeared"));
  }

  private static Instant latest(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
