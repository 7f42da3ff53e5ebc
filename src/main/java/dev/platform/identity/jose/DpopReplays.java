package dev.platform.identity.jose;

import dev.platform.identity.jose.DpopProofException.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The {@code jti}s of the DPoP proofs one node took, each kept until its proof could no longer be
 * taken ({@link DpopProof#usableUntil()}), so that a proof is taken once (RFC 9449 §11.1). Per
 * node, in memory: a proof replayed to another node is not seen here.
 *
 * <p>A {@code jti} is remembered under its key's thumbprint, so one client's {@code jti}s cannot
 * collide with another's, and as a SHA-256 digest of the two, so each entry is small whatever the
 * {@code jti}'s length: about 200 bytes with the map and the queue, some 20 MB at the default
 * bound. Each call drops the entries past their time (a heap ordered by expiry), then looks up and
 * adds one: a lock and O(log n) per proof.
 *
 * <p><b>When full, new proofs are refused ({@link Reason#BUSY}), and nothing unexpired is
 * forgotten.</b> Forgetting an entry early would let its proof be replayed within its window: a
 * flood of unique proofs, which anyone with a key of their own can make, would then wash out the
 * very proofs worth replaying. Refusing costs availability to this node's DPoP clients while the
 * flood lasts (for at most one window, since entries expire), which a rate limit in front bounds;
 * it never costs the replay rule.
 */
public final class DpopReplays {
  /** The bound unless the constructor says otherwise: 1,400 proofs a second over a 70 s window. */
  public static final int DEFAULT_MAX_ENTRIES = 100_000;

  private final Clock clock;
  private final int maxEntries;
  private final Map<ByteBuffer, Instant> seen = new HashMap<>();
  private final PriorityQueue<Entry> byExpiry = new PriorityQueue<>();

  private record Entry(Instant expiry, ByteBuffer key) implements Comparable<Entry> {
    @Override
    public int compareTo(Entry other) {
      return expiry.compareTo(other.expiry);
    }
  }

  /** A cache of {@link #DEFAULT_MAX_ENTRIES} entries, expired by {@code clock}. */
  public DpopReplays(Clock clock) {
    this(clock, DEFAULT_MAX_ENTRIES);
  }

  /** A cache of at most {@code maxEntries} unexpired entries, expired by {@code clock}. */
  public DpopReplays(Clock clock, int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("a replay cache needs room for one entry");
    }
    this.clock = clock;
    this.maxEntries = maxEntries;
  }

  /**
   * Takes {@code proof}'s {@code jti}, the first time it is seen within its window.
   *
   * @throws DpopProofException {@code REPLAYED} when it was taken before, {@code BUSY} when the
   *     cache is full of unexpired entries
   */
  public synchronized void claim(DpopProof proof) {
    Instant now = clock.instant();
    expire(now);
    ByteBuffer key = key(proof);
    if (seen.containsKey(key)) {
      throw new DpopProofException(Reason.REPLAYED, "the DPoP proof's jti was already used");
    }
    if (seen.size() >= maxEntries) {
      throw new DpopProofException(
          Reason.BUSY, "this server holds too many recent DPoP proofs: try again shortly");
    }
    seen.put(key, proof.usableUntil());
    byExpiry.add(new Entry(proof.usableUntil(), key));
  }

  /** The entries held, expired ones not yet dropped included. */
  public synchronized int size() {
    return seen.size();
  }

  /** Drops every entry whose proof could no longer be taken at {@code now}. */
  private void expire(Instant now) {
    while (!byExpiry.isEmpty() && byExpiry.peek().expiry().isBefore(now)) {
      seen.remove(byExpiry.poll().key());
    }
  }

  /** SHA-256 of the thumbprint and the jti, a separator between (a thumbprint has no space). */
  private static ByteBuffer key(DpopProof proof) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      sha256.update(proof.thumbprint().getBytes(StandardCharsets.US_ASCII));
      sha256.update((byte) ' ');
      return ByteBuffer.wrap(sha256.digest(proof.jti().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }
}
