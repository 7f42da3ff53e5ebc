package dev.platform.identity.key;

import java.time.Instant;

/**
 * ADMIN.md "Signing keys": one key as an operator sees it. Instants are ISO-8601 text.
 *
 * @param kid the key id
 * @param state {@code scheduled} (listed, not signing yet), {@code current}, {@code retiring}
 *     (listed for verification, no longer signing), {@code expired} or {@code revoked}
 * @param activeFrom when it starts signing
 * @param expiresAt when it leaves the list; null until its successor is scheduled
 * @param isCurrent whether it signs now
 * @param createdAt when it was created
 */
public record KeyStatus(
    String kid,
    String state,
    String activeFrom,
    String expiresAt,
    boolean isCurrent,
    String createdAt) {

  static KeyStatus of(SigningKey key, boolean isCurrent, Instant now) {
    return new KeyStatus(
        key.kid(),
        state(key, isCurrent, now),
        key.activeFrom().toString(),
        key.expiresAt().map(Object::toString).orElse(null),
        isCurrent,
        key.createdAt().toString());
  }

  private static String state(SigningKey key, boolean isCurrent, Instant now) {
    if (key.revokedAt().isPresent()) {
      return "revoked";
    }
    if (isCurrent) {
      return "current";
    }
    if (!key.isListedAt(now)) {
      return key.publishedAt().isAfter(now) ? "scheduled" : "expired";
    }
    return key.hasStartedAt(now) ? "retiring" : "scheduled";
  }
}
