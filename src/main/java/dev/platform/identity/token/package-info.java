/**
 * The token endpoint {@code POST /oauth/token} (SPEC 4.1): parsing a request and its client
 * credentials (form body and HTTP Basic), and the OAuth errors of SPEC 7.1 with their mapper.
 */
package dev.platform.identity.token;
