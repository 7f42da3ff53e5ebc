/**
 * Revoked access tokens (issue 38): the revocations every node holds in memory, refreshed from the
 * database, the public feed {@code GET /oauth/revocations} that resource servers poll, and the
 * check the service's own bearer checks consult. An extension of SPEC 3.2, where a token is valid
 * until its exp.
 */
package dev.platform.identity.revoke;
