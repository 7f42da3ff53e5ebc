/**
 * Scopes: the catalog (SPEC 2.6 and the administration scopes, stored in the database and served
 * from an in-memory snapshot), the {@code service:*} wildcard rule, granting a token request's
 * scopes and deriving its channel permissions (DESIGN "not shown").
 */
package dev.platform.identity.scope;
