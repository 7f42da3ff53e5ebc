/**
 * Service accounts: the entity and its lifecycle (active, deactivated, deleted as a tombstone),
 * client secrets kept only as peppered digests, each naming its pepper so the pepper can be
 * rotated, and the bootstrap administrator.
 */
package dev.platform.identity.account;
