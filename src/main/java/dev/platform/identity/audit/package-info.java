/**
 * The audit trail: one structured line per administrative change and per token issuance or refusal,
 * never with a secret or a token.
 */
package dev.platform.identity.audit;
