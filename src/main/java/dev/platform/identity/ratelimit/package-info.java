/**
 * Token-request limits and brute-force budgets (SPEC 8, DESIGN decision 7) with Bucket4j: successes
 * count against the client, failures against the (client, address) pair and the address, so a
 * stranger who knows a client_id cannot spend that client's quota. Buckets live in memory or, for
 * several nodes, in PostgreSQL or MariaDB.
 */
package dev.platform.identity.ratelimit;
