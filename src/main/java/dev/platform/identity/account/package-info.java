/**
 * Service accounts: the entity and its lifecycle (active, deactivated, deleted as a tombstone),
 * client secrets kept only as peppered digests, and the bootstrap administrator.
 */
package dev.platform.identity.account;
