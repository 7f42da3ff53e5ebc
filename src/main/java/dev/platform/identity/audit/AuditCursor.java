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

  /** The earliest and the latest time both databases store (years 1 to 9999). */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

  /**
   * An ISO-8601 UTC time, as the events show theirs, within what the databases store: a year beyond
   * 9999 was a 500 from the database, found by an attacker review.
   *
   * @throws IllegalArgumentException or {@link DateTimeParseException} when it is not one
   */
  public static Instant time(String text) {
    Instant time = Instant.parse(text);
    if (time.isBefore(EARLIEST) || time.isAfter(LATEST)) {
      throw new IllegalArgumentException("outside years 1 to 9999");
    }
    return time;
  }

  /** The cursor {@link #text} made, or empty when {@code text} is not one. */
  public static Optional<AuditCursor> parse(String text) {
    try {
      String[] parts =
          new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split("/", -1);
      if (parts.length != 2 || !parts[1].matches("[0-9]{1,18}")) {
        return Optional.empty();
      }
      AuditCursor cursor = new AuditCursor(time(parts[0]), Long.parseLong(parts[1]));
      return cursor.text().equals(text) ? Optional.of(cursor) : Optional.empty();
    } catch (IllegalArgumentException | DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
