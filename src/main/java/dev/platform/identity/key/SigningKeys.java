package dev.platform.identity.key;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.LockRow;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The stored signing keys. Every read goes to the database; the key ring is the cache. A row whose
 * MAC ({@link KeyRowMac}) does not hold is refused: never listed, never signed with, never changed
 * (a change would compute a fresh MAC and so vouch for it), and named once in a SEVERE log line.
 * Each row's MAC is under the key-encryption key its {@code kek_id} names, so during a rotation of
 * that key every node trusts rows under the old and the new one alike.
 */
public final class SigningKeys {
  private static final Logger LOG = Logger.getLogger(SigningKeys.class.getName());

  /**
   * Operators' key changes take this row (V7), not the signing_key rows themselves: those would not
   * stop a second rotation from reading them (plain reads do not wait), nor cover the row it
   * inserts.
   */
  private static final LockRow LOCK = new LockRow("signing_key_lock");

  private final Database database;
  private final KeyEncryption encryption;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /** The keys in {@code database}, their rows vouched for under the keys of {@code encryption}. */
  public SigningKeys(Database database, KeyEncryption encryption) {
    this.database = database;
    this.encryption = encryption;
  }

  /**
   * Every trusted key, revoked and expired ones included, oldest first.
   *
   * @throws IllegalStateException naming {@code java:comp/env/identity/keyEncryptionKey} when there
   *     are rows but none is trusted: the setting is not the key they were stored under (or every
   *     row was changed without it), and the node must not start over with a key of its own; or
   *     when a row names a key-encryption key this node does not hold (the row may be the current
   *     key, so it is never passed over)
   */
  public List<SigningKey> all() {
    return database.read(this::trusted);
  }

  /**
   * In one transaction: lets {@code change} update the stored keys, then adds the key it returns.
   * The updates are written first, so a slot that {@code change} releases can be taken again.
   *
   * @return the added key, or empty when another node took its schedule slot first, or {@code
   *     change} returned null (then nothing changed)
   */
  Optional<SigningKey> add(
      Function<List<SigningKey>, SigningKey> change, Function<SigningKey, AuditEvent> audit) {
    return add(change, audit, false);
  }

  /**
   * As {@link #add}, but first takes the lock row of {@code signing_key_lock} (V7), so operators'
   * rotations on every node run one after another and each sees the keys the last one left.
   */
  Optional<SigningKey> addInTurn(
      Function<List<SigningKey>, SigningKey> change, Function<SigningKey, AuditEvent> audit) {
    return add(change, audit, true);
  }

  private Optional<SigningKey> add(
      Function<List<SigningKey>, SigningKey> change,
      Function<SigningKey, AuditEvent> audit,
      boolean lock) {
    SigningKey[] added = new SigningKey[1];
    try {
      return Optional.ofNullable(
          database.write(
              em -> {
                if (lock) {
                  LOCK.take(em);
                }
                List<SigningKey> stored = trusted(em, LockModeType.PESSIMISTIC_WRITE);
                added[0] = change.apply(stored);
                if (added[0] == null) {
                  return null; // nothing to add, nothing changed
                }
                stored.forEach(key -> key.updateMac(macOf(key))); // unchanged rows keep their MAC
                em.flush();
                added[0].updateMac(macOf(added[0]));
                em.persist(added[0]);
                audit.apply(added[0]).storeIn(em);
                return added[0];
              }));
    } catch (RuntimeException e) {
      if (added[0] != null && isTakenByAnother(added[0])) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Applies {@code change} to the key {@code kid} in one transaction; empty if there is no trusted
   * key {@code kid}.
   */
  Optional<SigningKey> changeInTurn(String kid, Consumer<SigningKey> change, AuditEvent event) {
    return database.write(
        em -> {
          LOCK.take(em); // operators' key changes one after another, on every node
          SigningKey key = em.find(SigningKey.class, kid, LockModeType.PESSIMISTIC_WRITE);
          if (key == null || !isTrusted(key)) {
            return Optional.empty();
          }
          change.accept(key);
          key.updateMac(macOf(key));
          event.storeIn(em);
          return Optional.of(key);
        });
  }

  /** Deletes the keys {@code kids} in one transaction; returns how many there still were. */
  int remove(List<String> kids) {
    return database.write(
        em ->
            em.createQuery("delete from SigningKey k where k.kid in :kids")
                .setParameter("kids", kids)
                .executeUpdate());
  }

  /**
   * Re-encrypts the private key of {@code key}, a trusted row as read before, under the current
   * key-encryption key, and writes it with one compare-and-set on the whole row: its kid, its
   * {@code kek_id} and its MAC as read (the MAC covers every other column that matters), so neither
   * another node's re-encryption nor a concurrent revocation or expiry is overwritten.
   *
   * @return whether this call wrote it; false when the row changed (or went) since it was read
   */
  boolean reseal(SigningKey key, AuditEvent event) {
    KeyEncryptionKey current = encryption.current();
    // A key in a token has no private bytes here; only its MAC moves to the current key.
    SealedKey sealed =
        key.home() == PrivateKeyHome.DATABASE
            ? encryption.reseal(key.kid(), key.sealedPrivateKey())
            : null;
    String mac = current.mac().of(key.columnsSealedAs(sealed));
    return database.write(
        em -> {
          boolean written =
              em.createNamedQuery(SigningKey.RESEAL)
                      .setParameter(
                          "privateKey", sealed == null ? null : base64(sealed.ciphertext()))
                      .setParameter("nonce", sealed == null ? null : base64(sealed.nonce()))
                      .setParameter("kekId", current.id())
                      .setParameter("rowMac", mac)
                      .setParameter("kid", key.kid())
                      .setParameter("oldKekId", key.kekId())
                      .setParameter("oldRowMac", key.rowMac())
                      .executeUpdate()
                  == 1;
          if (written) {
            event.storeIn(em);
          }
          return written;
        });
  }

  /**
   * How many stored rows, trusted or not, in any state, are not sealed under this node's current
   * key-encryption key: the old key may be removed once this is 0 on every node.
   */
  int sealedUnderPreviousKeys() {
    return database
        .read(
            em ->
                em.createNamedQuery(SigningKey.NOT_SEALED_UNDER, Long.class)
                    .setParameter("kekId", encryption.current().id())
                    .getSingleResult())
        .intValue();
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** The MAC key of the key-encryption key that sealed {@code key}. */
  private KeyRowMac macOf(SigningKey key) {
    return encryption.named(key.kekId(), key.kid()).mac();
  }

  /**
   * Whether another key than {@code key} holds its schedule slot: then another node came first. A
   * commit that failed after the row became durable leaves the slot held by {@code key} itself.
   */
  private boolean isTakenByAnother(SigningKey key) {
    return key.scheduleSlot() != null
        && database.read(
            em ->
                em.createNamedQuery(SigningKey.IN_SLOT, Long.class)
                        .setParameter("slot", key.scheduleSlot())
                        .setParameter("kid", key.kid())
                        .getSingleResult()
                    > 0);
  }

  private List<SigningKey> trusted(EntityManager em) {
    return trusted(em, LockModeType.NONE);
  }

  /**
   * The trusted rows. The writers read them with {@code lock}, {@code PESSIMISTIC_WRITE} (SELECT
   * ... FOR UPDATE): a re-encryption ({@link #reseal}) committed meanwhile would otherwise be
   * overwritten by their MAC of the old columns, and a re-encryption after them waits and then
   * finds a MAC it did not read, so it changes nothing.
   */
  private List<SigningKey> trusted(EntityManager em, LockModeType lock) {
    List<SigningKey> rows =
        em.createNamedQuery(SigningKey.ALL, SigningKey.class).setLockMode(lock).getResultList();
    List<SigningKey> trusted = rows.stream().filter(this::isTrusted).toList();
    if (trusted.isEmpty() && !rows.isEmpty()) {
      throw new IllegalStateException(
          "java:comp/env/"
              + JndiSettings.KEY_ENCRYPTION_KEY
              + " does not decrypt or vouch for any of the "
              + rows.size()
              + " stored signing keys: it is not the key-encryption key they were stored under,"
              + " or every row was changed without it");
    }
    return trusted;
  }

  /**
   * Whether the row is vouched for.
   *
   * @throws IllegalStateException naming the key-encryption key id and the kid when the row names a
   *     key this node does not hold
   */
  private boolean isTrusted(SigningKey key) {
    if (key.kekId() == null) {
      if (reported.add(key.kid())) {
        LOG.severe(
            "Signing key row '"
                + printable(key.kid())
                + "' is refused and never served: its kek_id is empty, so no key-encryption key"
                + " vouched for it when migration 11 ran (or it was written without one)."
                + " Delete the row unless you know who made it.");
      }
      return false;
    }
    if (key.macHolds(encryption.named(key.kekId(), key.kid()).mac())) {
      return true;
    }
    if (reported.add(key.kid())) {
      LOG.severe(
          "Signing key row '"
              + printable(key.kid())
              + "' is refused and never served: its row_mac does not match its columns, so it was"
              + " written or changed without java:comp/env/"
              + JndiSettings.KEY_ENCRYPTION_KEY
              + " (or by a version of this service older than the MAC, after the migration)."
              + " Delete the row unless you know who made it.");
    }
    return false;
  }

  /** A kid as the log shows it: any text may be in a row nobody vouched for. */
  static String printable(String kid) {
    return kid.replaceAll("[^\\x20-\\x7e]", "?");
  }
}
