package dev.platform.identity.audit;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;

/**
 * Where a page of the audit trail ends: the time and id of its last (oldest) event. The next page
 * holds the events strictly before it in (time, id) order, so events stored meanwhile (always
 * newer) never shift it. On the wire it is opaque: base64url of {@code time/id}.
 */
public record AuditCursor(Instant time, long id) {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  static AuditCursor after(AuditEvent event) {
    return new AuditCursor(event.time(), event.id());
  }

  /** The opaque text a caller passes back as {@code cursor}. */
  public String text() {
    return ENCODER.encodeToString((time + "/" + id).getBytes(StandardCharsets.UTF_8));
  }

  /** The cursor {@link #text} made, or empty when {@code text} is not one. */
  public static Optional<AuditCursor> parse(String text) {
    try {
      String[] parts =
          new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split("/", -1);
      if (parts.length != 2 || !parts[1].matches("[0-9]{1,18}")) {
        return Optional.empty();
      }
      AuditCursor cursor = new AuditCursor(Instant.parse(parts[0]), Long.parseLong(parts[1]));
      return cursor.text().equals(text) ? Optional.of(cursor) : Optional.empty();
    } catch (IllegalArgumentException | DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
