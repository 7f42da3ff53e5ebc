package dev.platform.identity.http;

/**
 * SPEC 7.3's error shape {@code {error}}: the key endpoints' and that of any path outside the token
 * endpoint and the administration API (DESIGN decision 6).
 *
 * @param error what went wrong, for the caller
 */
public record ErrorBody(String error) {}
