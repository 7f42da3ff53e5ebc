package dev.platform.identity.db;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Stores every {@link Instant} as a UTC {@code TIMESTAMP WITH TIME ZONE} (JPA 3.1 lacks Instant).
 */
@Converter(autoApply = true)
public final class InstantConverter implements AttributeConverter<Instant, OffsetDateTime> {
  @Override
  public OffsetDateTime convertToDatabaseColumn(Instant instant) {
    return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
  }

  @Override
  public Instant convertToEntityAttribute(OffsetDateTime time) {
    return time == null ? null : time.toInstant();
  }
}
