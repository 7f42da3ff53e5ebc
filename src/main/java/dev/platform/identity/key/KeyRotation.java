package dev.platform.identity.key;

import dev.platform.identity.config.Settings;
import dev.platform.identity.config.Settings.KeySchedule;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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

  private final SigningKeys keys;
  private final KeyRing ring;
  private final KeyEncryption encryption;
  private final KeySchedule schedule;
  private final int keySize;
  private final Clock clock;
  private final SecureRandom random;
  private ScheduledExecutorService scheduler;

  public KeyRotation(
      SigningKeys keys,
      KeyRing ring,
      KeyEncryption encryption,
      Settings settings,
      Clock clock,
      SecureRandom random) {
    this.keys = keys;
    this.ring = ring;
    this.encryption = encryption;
    this.schedule = settings.keySchedule();
    this.keySize = settings.signingKeySize();
    this.clock = clock;
    this.random = random;
  }

  /**
   * Creates the first key if there is none, loads the ring (which fails when the key-encryption key
   * is wrong), then refreshes and rotates on {@link KeySchedule#refresh()} on a daemon thread.
   */
  public synchronized void start() {
    rotateIfDue();
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "identity-key-rotation");
              thread.setDaemon(true);
              return thread;
            });
    long period = schedule.refresh().toMillis();
    scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }

  private void tick() {
    try {
      rotateIfDue();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Refreshing the signing keys failed; trying again later", e);
    }
  }

  /**
   * The scheduled step: reloads the ring, then creates the first key or the next one if it is due.
   *
   * @return whether this node created a key
   */
  public boolean rotateIfDue() {
    ring.refresh();
    return createIfDue(ring.rows(), now());
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
    KeyMaterial material = KeyMaterial.generate(keySize, encryption, random);
    Optional<SigningKey> created =
        keys.add(
            stored -> {
              if (predecessor != null) {
                find(stored, predecessor).expireAt(activeFrom.plus(schedule.retention()));
              }
              return SigningKey.create(material, slot, now, activeFrom);
            });
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
   */
  public SigningKey rotate(boolean immediate) {
    Instant now = now();
    Instant activeFrom = immediate ? now : now.plus(schedule.prePublication());
    SigningKey key = successor(now, activeFrom, null);
    ring.refresh();
    LOG.info(
        "Signing key "
            + key.kid()
            + " published by an operator; it signs from "
            + activeFrom
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
   */
  public Optional<SigningKey> revoke(String kid) {
    Instant now = now();
    boolean signing =
        SigningKey.currentAt(keys.all(), now).filter(key -> key.kid().equals(kid)).isPresent();
    if (signing) {
      successor(now, now, kid);
    }
    Optional<SigningKey> revoked = keys.change(kid, key -> key.revoke(now));
    ring.refresh();
    revoked.ifPresent(key -> LOG.warning("Signing key " + kid + " revoked"));
    return revoked;
  }

  /**
   * In one transaction: revokes {@code revoked} if given, withdraws the keys that have not signed
   * yet, ends the current key's signing at {@code activeFrom} and adds its successor. Tried twice,
   * in case another node's scheduled rotation took the slot in between.
   */
  private SigningKey successor(Instant now, Instant activeFrom, String revoked) {
    Instant expiry = lastSignature(now, activeFrom).plus(schedule.retention());
    for (int attempt = 0; attempt < 2; attempt++) {
      KeyMaterial material = KeyMaterial.generate(keySize, encryption, random);
      Optional<SigningKey> added =
          keys.add(
              stored -> {
                Optional<SigningKey> current = SigningKey.currentAt(stored, now);
                if (revoked != null) {
                  find(stored, revoked).revoke(now);
                }
                stored.stream().filter(key -> key.isPendingAt(now)).forEach(key -> key.retire(now));
                current
                    .filter(key -> key.revokedAt().isEmpty())
                    .ifPresent(key -> key.expireAt(expiry));
                String slot =
                    current
                        .map(SigningKey::successorSlot)
                        .orElseGet(() -> SigningKey.slotAfterNewest(stored));
                return SigningKey.create(material, slot, now, activeFrom);
              });
      if (added.isPresent()) {
        return added.get();
      }
    }
    throw new IllegalStateException("the signing keys changed concurrently twice; try again");
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
