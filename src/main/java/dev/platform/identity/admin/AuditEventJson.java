package dev.platform.identity.admin;

import dev.platform.identity.audit.AuditEvent;
import java.util.List;
import java.util.Map;

/** An event of the audit trail as {@code GET /admin/v1/audit-events} shows it. */
public record AuditEventJson(
    long id,
    String time,
    String event,
    String actor,
    String target,
    String organizationId,
    String outcome,
    String remoteAddress,
    Map<String, String> detail) {

  static AuditEventJson from(AuditEvent event) {
    return new AuditEventJson(
        event.id(),
        event.time().toString(),
        event.event(),
        event.actor().orElse(null),
        event.target().orElse(null),
        event.organization().orElse(null),
        event.outcome(),
        event.remoteAddress().orElse(null),
        event.details());
  }

  /**
   * One page: {@code {"items":[...], "next_cursor": ...}}, the listing shape of {@link Items} with
   * the cursor of the next page, null on the last.
   */
  public record Page(List<AuditEventJson> items, String nextCursor) {}
}
