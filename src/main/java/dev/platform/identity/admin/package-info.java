/**
 * The administration API {@code /admin/v1} (ADMIN.md): service accounts, the scope catalog and the
 * signing keys, protected by this service's own tokens, authorised in one place ({@link
 * dev.platform.identity.admin.AdminAuth}).
 */
package dev.platform.identity.admin;
