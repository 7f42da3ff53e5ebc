package dev.platform.identity.audit;

import dev.platform.identity.db.Database;
import dev.platform.identity.db.InstantConverter;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit trail stored in the database. The stores that make changes insert its rows in their own
 * transactions; this one reads them and deletes the expired ones.
 */
public final class AuditEvents {
  private static final InstantConverter INSTANTS = new InstantConverter();

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

  /** Stores {@code event} in a transaction of its own: one that records no change (a sign-in). */
  void store(AuditEvent event) {
    database.write(
        em -> {
          event.storeIn(em);
          return null;
        });
  }

  /**
   * Stores {@code event} unless an event was stored for {@code bucket} and {@code windowStart}
   * already, by this node or another: the row of {@code audit_exhausted_window} and the event
   * commit together, and its primary key lets only one through (one {@code ratelimit.exhausted} per
   * bucket and window, never one per request).
   *
   * @return whether this call stored it
   */
  public boolean recordOnce(String bucket, Instant windowStart, AuditEvent event) {
    Object start = INSTANTS.convertToDatabaseColumn(windowStart);
    return database.write(
        em -> {
          boolean first =
              em.createNativeQuery(
                          "insert into audit_exhausted_window (bucket, window_start) select ?, ?"
                              + " where not exists (select 1 from audit_exhausted_window"
                              + " where bucket = ? and window_start = ?)")
                      .setParameter(1, bucket)
                      .setParameter(2, start)
                      .setParameter(3, bucket)
                      .setParameter(4, start)
                      .executeUpdate()
                  == 1;
          if (first) {
            event.storeIn(em);
          }
          return first;
        });
  }

  /** Forgets the windows of {@link #recordOnce} that began before {@code before}. */
  int forgetWindowsBefore(Instant before) {
    return database.write(
        em ->
            em.createNativeQuery("delete from audit_exhausted_window where window_start < ?")
                .setParameter(1, INSTANTS.convertToDatabaseColumn(before))
                .executeUpdate());
  }

  /**
   * Deletes up to {@code batch} of the oldest events before {@code before}, in one transaction.
   *
   * @return how many it deleted; fewer than {@code batch} when no more are that old
   */
  int deleteBefore(Instant before, int batch) {
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
