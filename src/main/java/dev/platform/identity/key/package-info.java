/**
 * Signing keys (DESIGN decisions 4 and 5): RSA keys encrypted at rest, the in-memory key ring the
 * token path signs with, the rotation schedule that nodes follow by their clocks alone, and the
 * public-key endpoints (SPEC 4.2, 4.3).
 */
package dev.platform.identity.key;
