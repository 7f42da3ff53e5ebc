package dev.platform.identity.db;

import jakarta.persistence.EntityManager;

/**
 * A table of one row (id 1) that writers lock before work that must run one at a time across every
 * node: SELECT ... FOR UPDATE, the same on H2 and PostgreSQL, held until the transaction ends. A
 * plain read does not wait for it, so only the writers that take it are kept in line.
 *
 * @param table the lock table, made by a migration with its one row
 */
public record LockRow(String table) {
  public LockRow {
    // The name goes into the statement as text: only a plain identifier, never a value from
    // outside.
    if (!table.matches("[a-z_]+")) {
      throw new IllegalArgumentException("not a lock table's name: " + table);
    }
  }

  /** Waits for the row, then holds it until {@code em}'s transaction ends. */
  public void take(EntityManager em) {
    em.createNativeQuery("select id from " + table + " where id = 1 for update").getResultList();
  }
}
