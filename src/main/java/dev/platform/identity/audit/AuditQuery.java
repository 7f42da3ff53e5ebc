package dev.platform.identity.audit;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which events of the audit trail to list, newest first: each filter that is present must match.
 *
 * @param since events at or after this time
 * @param until events before this time
 * @param organizations when present, only events about accounts of these organizations (an
 *     organization-scoped reader); an empty list matches nothing
 * @param after the cursor of the previous page
 * @param limit the most events on one page
 */
public record AuditQuery(
    Optional<String> event,
    Optional<String> actor,
    Optional<String> target,
    Optional<Instant> since,
    Optional<Instant> until,
    Optional<List<String>> organizations,
    Optional<AuditCursor> after,
    int limit) {
  /** The largest page. */
  public static final int MAX_LIMIT = 500;

  /** The page size when none is asked for. */
  public static final int DEFAULT_LIMIT = 100;
}
