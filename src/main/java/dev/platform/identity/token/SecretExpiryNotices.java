package dev.platform.identity.token;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which accounts this node has audited today as coming near their secret's expiry: once a day per
 * account, not per request. In memory and per node (docs/design-choices.md): each node says it once
 * a day, and a restart may say it again; one entry per account, replaced each day.
 */
final class SecretExpiryNotices {
  private final Map<UUID, LocalDate> lastNotice = new ConcurrentHashMap<>();

  /** Whether this is the first notice for {@code account} on {@code now}'s UTC day; records it. */
  boolean firstToday(UUID account, Instant now) {
    LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
    return !day.equals(lastNotice.put(account, day));
  }
}
