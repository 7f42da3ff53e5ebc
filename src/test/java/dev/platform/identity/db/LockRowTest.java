package dev.platform.identity.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LockRowTest {
  private static final LockRow LOCK = new LockRow("signing_key_lock");

  @Test
  void whenATransactionHoldsTheRowThenAnotherCannotTakeItUntilTheFirstEnds() {
    try (Database database = TestDatabases.h2()) {
      database.write(
          em -> {
            LOCK.take(em);
            // H2 gives up waiting after the lock timeout rather than the test waiting on a clock.
            assertThrows(
                RuntimeException.class,
                () ->
                    database.write(
                        other -> {
                          other.createNativeQuery("set lock_timeout 50").executeUpdate();
                          LOCK.take(other);
                          return null;
                        }));
            return null;
          });
      assertEquals("taken", database.write(em -> take(em)));
    }
  }

  @Test
  void whenEachLockTableOfTheSchemaIsTakenThenItsOneRowIsFound() {
    try (Database database = TestDatabases.h2()) {
      for (String table : new String[] {"signing_key_lock", "audit_retention_lock"}) {
        assertEquals(
            Integer.valueOf(1),
            database.<Integer>write(
                em -> {
                  new LockRow(table).take(em);
                  return em.createNativeQuery("select id from " + table + " where id = 1")
                      .getResultList()
                      .size();
                }),
            table);
      }
    }
  }

  @Test
  void whenTheTableNameIsNotAPlainIdentifierThenItIsRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new LockRow("audit_retention_lock; drop table x"));
  }

  private static String take(jakarta.persistence.EntityManager em) {
    LOCK.take(em);
    return "taken";
  }
}
