/**
 * The audit trail: one structured line per administrative change and per token issuance or refusal,
 * never with a secret or a token; and the administrative changes kept in the database too ({@link
 * dev.platform.identity.audit.AuditEvent}), each stored in the transaction of its change, listed
 * newest first and deleted after the retention.
 */
package dev.platform.identity.audit;
