/**
 * The token endpoint {@code POST /oauth/token} (SPEC 4.1): parsing a request and its client
 * credentials (form body and HTTP Basic), the claims and their signature, and the OAuth errors of
 * SPEC 7.1; the fenced fetch and cache of the key sets clients publish at a {@code jwks_uri} (issue
 * 22).
 */
package dev.platform.identity.token;
