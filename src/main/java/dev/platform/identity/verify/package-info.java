/**
 * Bearer-token verification for any platform API: parses {@code Authorization: Bearer}, runs the
 * SPEC 5.4 checks (expiry, RS256 signature by {@code kid}, issuer, scopes), and optionally the
 * issuer's revocation feed, and rejects with a 401 or 403 exception (SPEC 7.2). It imports nothing
 * else of the project, so other services can take it as a small jar with Jackson and Caffeine.
 */
package dev.platform.identity.verify;
