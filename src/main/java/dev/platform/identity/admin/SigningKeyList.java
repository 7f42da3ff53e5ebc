package dev.platform.identity.admin;

import dev.platform.identity.key.KeyStatus;
import java.util.List;

/**
 * {@code GET /admin/v1/signing-keys}: the keys as {@link Items} lists them, and how many are still
 * sealed under a previous key-encryption key, so an operator can tell from here too when the old
 * key may be removed.
 */
public record SigningKeyList(List<KeyStatus> items, int sealedUnderPreviousKeyEncryptionKeys) {}
