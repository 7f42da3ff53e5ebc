package dev.platform.identity.revoke;

import java.time.Instant;

/**
 * One token revoked by its {@code jti}, listed until {@code expiresAt}, its {@code exp} (or, when
 * an administrator revoked it by jti alone, the latest exp a token issued now could have).
 */
public record RevokedToken(String jti, String clientId, Instant expiresAt) {}
