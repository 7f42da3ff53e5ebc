/**
 * The token endpoint {@code POST /oauth/token} (SPEC 4.1): parsing a request and its client
 * credentials (form body and HTTP Basic), the claims and their signature, and the OAuth errors of
 * SPEC 7.1.
 */
package dev.platform.identity.token;
