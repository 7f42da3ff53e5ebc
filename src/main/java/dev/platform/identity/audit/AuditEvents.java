package dev.platform.identity.audit;

import dev.platform.identity.db.Database;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit trail stored in the database (issue 20 §3). The stores that make changes insert its
 * rows in their own transactions; this one reads them and deletes the expired ones.
 */
public final class AuditEvents {
  private final Database database;

  public AuditEvents(Database database) {
    this.database = database;
  }

  /** One page of events. */
  public record Page(List<AuditEvent> events, Optional<AuditCursor> next) {}

  /**
   * The events {@code query} asks for, newest first by (time, id): a keyset walk, so a page starts
   * where the cursor says however many events were stored since.
   */
  public Page list(AuditQuery query) {
    if (query.organizations().map(List::isEmpty).orElse(false)) {
      return new Page(List.of(), Optional.empty());
    }
    List<AuditEvent> found = database.read(em -> select(em, query).getResultList());
    if (found.size() <= query.limit()) {
      return new Page(found, Optional.empty());
    }
    List<AuditEvent> page = found.subList(0, query.limit());
    return new Page(List.copyOf(page), Optional.of(AuditCursor.after(page.get(page.size() - 1))));
  }

  private static TypedQuery<AuditEvent> select(EntityManager em, AuditQuery query) {
    List<String> where = new ArrayList<>();
    query.event().ifPresent(value -> where.add("e.event = :event"));
    query.actor().ifPresent(value -> where.add("e.actor = :actor"));
    query.target().ifPresent(value -> where.add("e.target = :target"));
    query.since().ifPresent(value -> where.add("e.time >= :since"));
    query.until().ifPresent(value -> where.add("e.time < :until"));
    query.organizations().ifPresent(value -> where.add("e.organization in :organizations"));
    query
        .after()
        .ifPresent(
            value ->
                where.add("(e.time < :afterTime or (e.time = :afterTime and e.id < :afterId))"));
    String jpql =
        "select e from AuditEvent e"
            + (where.isEmpty() ? "" : " where " + String.join(" and ", where))
            + " order by e.time desc, e.id desc";
    TypedQuery<AuditEvent> select = em.createQuery(jpql, AuditEvent.class);
    query.event().ifPresent(value -> select.setParameter("event", value));
    query.actor().ifPresent(value -> select.setParameter("actor", value));
    query.target().ifPresent(value -> select.setParameter("target", value));
    query.since().ifPresent(value -> select.setParameter("since", value));
    query.until().ifPresent(value -> select.setParameter("until", value));
    query.organizations().ifPresent(value -> select.setParameter("organizations", value));
    query
        .after()
        .ifPresent(
            cursor ->
                select
                    .setParameter("afterTime", cursor.time())
                    .setParameter("afterId", cursor.id()));
    return select.setMaxResults(query.limit() + 1);
  }

  /**
   * Deletes up to {@code batch} of the oldest events before {@code before}, in one transaction.
   *
   * @return how many it deleted; fewer than {@code batch} when no more are that old
   */
  public int deleteBefore(Instant before, int batch) {
    return database.write(
        em -> {
          List<Long> ids =
              em.createNamedQuery(AuditEvent.BEFORE, Long.class)
                  .setParameter("before", before)
                  .setMaxResults(batch)
                  .getResultList();
          return ids.isEmpty()
              ? 0
              : em.createNamedQuery(AuditEvent.DELETE).setParameter("ids", ids).executeUpdate();
        });
  }
}
