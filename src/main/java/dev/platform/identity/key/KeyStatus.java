package dev.platform.identity.key;

import com.fasterxml.jackson.annotation.JsonIgnore;
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
 * @param keyEncryptionKeyId the id of the key-encryption key its private key is sealed under (issue
 *     19 §2): its {@link dev.platform.identity.config.KeyId}, not secret; for a key in a token, the
 *     one whose MAC key vouches for its row
 * @param privateKeyHome where the private key is: {@code database}, sealed in its row, or {@code
 *     pkcs11}, inside the configured token
 */
public record KeyStatus(
    String kid,
    String state,
    String activeFrom,
    String expiresAt,
    boolean isCurrent,
    String createdAt,
    String keyEncryptionKeyId,
    String privateKeyHome) {
  private static final String REVOKED = "revoked";

  static KeyStatus of(SigningKey key, boolean isCurrent, Instant now) {
    return new KeyStatus(
        key.kid(),
        state(key, isCurrent, now),
        key.activeFrom().toString(),
        key.expiresAt().map(Object::toString).orElse(null),
        isCurrent,
        key.createdAt().toString(),
        key.kekId(),
        key.home().column());
  }

  /** Whether the key was revoked (not part of the JSON: {@code state} says it there). */
  @JsonIgnore
  public boolean isRevoked() {
    return state.equals(REVOKED);
  }

  private static String state(SigningKey key, boolean isCurrent, Instant now) {
    if (key.revokedAt().isPresent()) {
      return REVOKED;
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
