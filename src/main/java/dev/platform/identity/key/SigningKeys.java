package dev.platform.identity.key;

import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.db.Database;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Logger;
import javax.crypto.SecretKey;

/**
 * The stored signing keys. Every read goes to the database; the key ring is the cache. A row whose
 * MAC ({@link KeyRowMac}) does not hold is refused: never listed, never signed with, never changed
 * (a change would compute a fresh MAC and so vouch for it), and named once in a SEVERE log line.
 */
public final class SigningKeys {
  private static final Logger LOG = Logger.getLogger(SigningKeys.class.getName());

  private final Database database;
  private final KeyRowMac mac;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /** The keys in {@code database}, their rows vouched for under {@code keyEncryptionKey}. */
  public SigningKeys(Database database, SecretKey keyEncryptionKey) {
    this.database = database;
    this.mac = new KeyRowMac(keyEncryptionKey);
  }

  /**
   * Every trusted key, revoked and expired ones included, oldest first.
   *
   * @throws IllegalStateException naming {@code java:comp/env/identity/keyEncryptionKey} when there
   *     are rows but none is trusted: the setting is not the key they were stored under (or every
   *     row was changed without it), and the node must not start over with a key of its own
   */
  public List<SigningKey> all() {
    return database.read(this::trusted);
  }

  /**
   * In one transaction: lets {@code change} update the stored keys, then adds the key it returns.
   * The updates are written first, so a slot that {@code change} releases can be taken again.
   *
   * @return the added key, or empty when another node took its schedule slot first (then nothing
   *     changed)
   */
  Optional<SigningKey> add(Function<List<SigningKey>, SigningKey> change) {
    return add(change, false);
  }

  /**
   * As {@link #add}, but first takes the lock row of {@code signing_key_lock} (V7), so operators'
   * rotations on every node run one after another and each sees the keys the last one left.
   */
  Optional<SigningKey> addInTurn(Function<List<SigningKey>, SigningKey> change) {
    return add(change, true);
  }

  private Optional<SigningKey> add(Function<List<SigningKey>, SigningKey> change, boolean lock) {
    SigningKey[] added = new SigningKey[1];
    try {
      return Optional.of(
          database.write(
              em -> {
                if (lock) {
                  lock(em);
                }
                List<SigningKey> stored = trusted(em);
                added[0] = change.apply(stored);
                stored.forEach(key -> key.updateMac(mac)); // unchanged rows keep the same MAC
                em.flush();
                added[0].updateMac(mac);
                em.persist(added[0]);
                return added[0];
              }));
    } catch (RuntimeException e) {
      if (added[0] != null && isTaken(added[0].scheduleSlot())) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Applies {@code change} to the key {@code kid} in one transaction; empty if there is no trusted
   * key {@code kid}.
   */
  Optional<SigningKey> changeInTurn(String kid, Consumer<SigningKey> change) {
    return database.write(
        em -> {
          lock(em); // operators' key changes one after another, on every node
          SigningKey key = em.find(SigningKey.class, kid);
          if (key == null || !isTrusted(key)) {
            return Optional.empty();
          }
          change.accept(key);
          key.updateMac(mac);
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
   * SELECT ... FOR UPDATE on the one lock row, held until the transaction ends: the same on H2 and
   * PostgreSQL. A lock on the signing_key rows themselves would not stop a second rotation from
   * reading them (plain reads do not wait), nor cover the row it inserts.
   */
  private static void lock(EntityManager em) {
    em.createNativeQuery("select id from signing_key_lock where id = 1 for update").getResultList();
  }

  private boolean isTaken(String slot) {
    return slot != null
        && database.read(
            em ->
                em.createNamedQuery(SigningKey.IN_SLOT, Long.class)
                        .setParameter("slot", slot)
                        .getSingleResult()
                    > 0);
  }

  private List<SigningKey> trusted(EntityManager em) {
    List<SigningKey> rows = em.createNamedQuery(SigningKey.ALL, SigningKey.class).getResultList();
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

  private boolean isTrusted(SigningKey key) {
    if (key.macHolds(mac)) {
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
