package dev.platform.identity.key;

import dev.platform.identity.db.Database;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/** The stored signing keys. Every read goes to the database; the key ring is the cache. */
public final class SigningKeys {
  private final Database database;

  public SigningKeys(Database database) {
    this.database = database;
  }

  /** Every key ever stored, revoked and expired ones included, oldest first. */
  public List<SigningKey> all() {
    return database.read(SigningKeys::all);
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
   * As {@link #add}, but first takes the lock row of {@code signing_key_lock} (V6), so operators'
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
                added[0] = change.apply(all(em));
                em.flush();
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

  /** Applies {@code change} to the key {@code kid} in one transaction; empty if there is none. */
  Optional<SigningKey> change(String kid, Consumer<SigningKey> change) {
    return database.write(
        em -> {
          SigningKey key = em.find(SigningKey.class, kid);
          if (key != null) {
            change.accept(key);
          }
          return Optional.ofNullable(key);
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

  private static List<SigningKey> all(EntityManager em) {
    return em.createNamedQuery(SigningKey.ALL, SigningKey.class).getResultList();
  }
}
