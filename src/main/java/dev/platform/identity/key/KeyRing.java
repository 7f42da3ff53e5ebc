package dev.platform.identity.key;

import dev.platform.identity.config.Settings.KeySchedule;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The signing keys in memory: one immutable {@link KeyRingSnapshot} in an {@link AtomicReference}.
 * The token path reads it without touching the database or decrypting anything. Each node reloads
 * the rows on {@link KeySchedule#refresh()} (see {@link KeyRotation#start()}) and at once after a
 * change of its own; between reloads the snapshot follows the clock through the activations and
 * expiries the rows already announce, so nodes agree on the current key without talking.
 */
public final class KeyRing {
  /** SPEC 8: clients cache the public keys for at most an hour. */
  static final Duration MAX_CACHE_TIME = Duration.ofHours(1);

  /** What the readiness check says when the token of the current key fails. */
  static final String HSM_UNAVAILABLE = "HSM token unavailable; restart required";

  /** What it says when the token does not hold the current key: the rotation replaces it. */
  static final String KEY_NOT_IN_TOKEN =
      "HSM token does not hold the current signing key; a new key replaces it";

  /** What it says when no key signs for another reason. */
  static final String NO_KEY = "no signing key signs now";

  private static final Logger LOG = Logger.getLogger(KeyRing.class.getName());
  private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
  private static final byte[] PROBE_MESSAGE =
      "identity readiness".getBytes(StandardCharsets.US_ASCII);

  private final SigningKeys keys;
  private final PrivateKeys privateKeys;
  private final Clock clock;
  private final Duration cacheTime;
  private final AtomicReference<KeyRingSnapshot> snapshot = new AtomicReference<>();
  private final Duration rotationInterval;
  private volatile int sealedUnderPreviousKeys;
  private volatile Instant refreshedAt;
  private final Object probeLock = new Object();
  private Probe probe; // guarded by probeLock

  /** A ring of keys whose private halves are all in the database, sealed by {@code encryption}. */
  public KeyRing(SigningKeys keys, KeyEncryption encryption, KeySchedule schedule, Clock clock) {
    this(keys, PrivateKeys.inDatabase(encryption), schedule, clock);
  }

  /** A ring that opens each key where {@code privateKeys} say it is. */
  public KeyRing(SigningKeys keys, PrivateKeys privateKeys, KeySchedule schedule, Clock clock) {
    this.keys = keys;
    this.privateKeys = privateKeys;
    this.clock = clock;
    this.cacheTime = cacheTime(schedule);
    this.rotationInterval = schedule.rotationInterval();
  }

  /**
   * A node learns of another node's new key up to one refresh late, and a new key signs one
   * pre-publication after it is stored; a list cached for at most the difference therefore always
   * holds a key before it signs.
   */
  private static Duration cacheTime(KeySchedule schedule) {
    Duration bound = schedule.prePublication().minus(schedule.refresh());
    return bound.compareTo(MAX_CACHE_TIME) < 0 ? bound : MAX_CACHE_TIME;
  }

  /**
   * Reloads the rows from the database.
   *
   * @throws IllegalStateException naming {@code java:comp/env/identity/keyEncryptionKey} when the
   *     current key cannot be decrypted with it, or no stored row is vouched for under it
   */
  public synchronized void refresh() {
    snapshot.set(KeyRingSnapshot.of(keys.all(), clock.instant(), snapshot.get(), privateKeys));
    sealedUnderPreviousKeys = keys.sealedUnderPreviousKeys();
    refreshedAt = clock.instant();
  }

  /** The ring as /metrics shows it, from memory (no database); all empty before the first load. */
  public KeyRingState state() {
    Instant now = clock.instant();
    if (snapshot.get() == null) {
      return new KeyRingState(now, 0, null, null, null, refreshedAt);
    }
    KeyRingSnapshot held = snapshotAt(now);
    String current = held.current().map(CurrentKey::kid).orElse(null);
    Instant currentSince =
        held.rows().stream()
            .filter(key -> key.kid().equals(current))
            .map(SigningKey::activeFrom)
            .findFirst()
            .orElse(null);
    Instant next =
        held.rows().stream()
            .filter(key -> key.isPendingAt(now))
            .map(SigningKey::activeFrom)
            .min(Comparator.naturalOrder())
            .orElse(null);
    Instant plannedEnd = currentSince == null ? null : currentSince.plus(rotationInterval);
    return new KeyRingState(now, held.listedCount(), currentSince, plannedEnd, next, refreshedAt);
  }

  /**
   * How many stored keys (any state, refused ones included) were sealed under another
   * key-encryption key than this node's current one, as of the last refresh. When it is 0 on every
   * node, no row needs the previous key any more.
   */
  public int sealedUnderPreviousKeys() {
    return sealedUnderPreviousKeys;
  }

  /**
   * The key to sign with now. Cheap: no database, no decryption.
   *
   * @throws IllegalStateException when no key signs now (the ring was never loaded, or no key has
   *     started yet)
   */
  public CurrentKey current() {
    KeyRingSnapshot held = snapshotAt(clock.instant());
    return held.current()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    held.unopened()
                        .map(kid -> "signing key " + kid + " is not available in its PKCS#11 token")
                        .orElse("no signing key is active at this time")));
  }

  /**
   * The kid of the key that should sign now when its token did not give its private half at the
   * last computation of the ring (it is tried again at each refresh).
   */
  Optional<String> unopenedKey() {
    return snapshotAt(clock.instant()).unopened();
  }

  /**
   * The published public key {@code kid}, for verifying this service's own tokens in process (the
   * administration API); empty when unknown, not yet published, expired or revoked.
   */
  public Optional<PublicKey> publicKey(String kid) {
    KeyRingSnapshot held = snapshotAt(clock.instant());
    return held.find(kid).isPresent()
        ? held.rows().stream()
            .filter(key -> key.kid().equals(kid))
            .findFirst()
            .map(SigningKey::rsaPublicKey)
        : Optional.empty();
  }

  /**
   * Why the current key cannot sign, found by signing a fixed message with it (at most once a
   * second; readiness checks are unauthenticated); empty when it signs. A key in a PKCS#11 token
   * whose token went away says a restart is required: SunPKCS11 never initialises its module again
   * in a running JVM.
   */
  public Optional<String> signingProblem() {
    synchronized (probeLock) { // callers at once wait for one signature, then share its answer
      Probe last = probe;
      if (last != null && System.nanoTime() - last.nanos() < PROBE_INTERVAL.toNanos()) {
        return last.problem();
      }
      Optional<String> problem = signOnce();
      if (problem.isPresent() && (last == null || last.problem().isEmpty())) {
        LOG.warning("Not ready: " + problem.get());
      }
      probe = new Probe(System.nanoTime(), problem);
      return problem;
    }
  }

  /**
   * One of three fixed texts, for anyone who asks: never a kid, slot or exception message (those go
   * to the log).
   */
  private Optional<String> signOnce() {
    KeyRingSnapshot held;
    CurrentKey key;
    try {
      held = snapshotAt(clock.instant());
      if (held.unopened().isPresent()) {
        return Optional.of(KEY_NOT_IN_TOKEN);
      }
      key = current();
    } catch (IllegalStateException e) {
      LOG.log(Level.FINE, "No key signs", e);
      return Optional.of(NO_KEY);
    }
    try {
      Signature rs256 = key.rs256();
      rs256.update(PROBE_MESSAGE);
      rs256.sign();
      return Optional.empty();
    } catch (GeneralSecurityException | RuntimeException e) {
      LOG.log(Level.WARNING, "The readiness signature with key " + key.kid() + " failed", e);
      return Optional.of(key.inToken() ? HSM_UNAVAILABLE : NO_KEY);
    }
  }

  /** When the readiness signature was made, and what it found. */
  private record Probe(long nanos, Optional<String> problem) {}

  /** Every stored key, newest first, as an operator sees it now. */
  public List<KeyStatus> statuses() {
    Instant now = clock.instant();
    KeyRingSnapshot held = snapshotAt(now);
    String current = held.current().map(CurrentKey::kid).orElse(null);
    return held.rows().stream()
        .sorted(Comparator.comparing(SigningKey::createdAt).reversed())
        .map(key -> KeyStatus.of(key, key.kid().equals(current), now))
        .toList();
  }

  /** SPEC 4.2: the published list as JSON, cacheable until the list next changes. */
  Cached<byte[]> published() {
    Instant now = clock.instant();
    KeyRingSnapshot held = snapshotAt(now);
    return new Cached<>(held.keySetJson(), maxAge(now, held.listChangesAt()));
  }

  /**
   * SPEC 4.3: the published key {@code kid}, cacheable until anything of it next changes; empty
   * when unknown, not yet published, expired or revoked.
   */
  Optional<Cached<PublicKeyRecord>> lookup(String kid) {
    Instant now = clock.instant();
    KeyRingSnapshot held = snapshotAt(now);
    return held.find(kid).map(record -> new Cached<>(record, maxAge(now, held.changesAt())));
  }

  /** The rows of the snapshot in use, as last loaded. */
  List<SigningKey> rows() {
    return snapshotAt(clock.instant()).rows();
  }

  private Duration maxAge(Instant now, Instant change) {
    if (change == null) {
      return cacheTime;
    }
    Duration left = Duration.between(now, change);
    return left.compareTo(cacheTime) < 0 ? left : cacheTime;
  }

  private KeyRingSnapshot snapshotAt(Instant now) {
    KeyRingSnapshot held = snapshot.get();
    if (held == null) {
      throw new IllegalStateException("the key ring is not loaded yet");
    }
    if (held.holdsAt(now)) {
      return held;
    }
    KeyRingSnapshot moved = KeyRingSnapshot.of(held.rows(), now, held, privateKeys);
    snapshot.compareAndSet(held, moved);
    return moved;
  }

  /**
   * A response body and how long a client may cache it.
   *
   * @param body shared by every response until the ring changes: never modify it
   * @param maxAge at most {@link #MAX_CACHE_TIME}, never past the body's next change
   */
  record Cached<T>(T body, Duration maxAge) {}
}
