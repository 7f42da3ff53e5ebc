/**
 * The token client for backends that call platform APIs: gets a token from the identity service,
 * caches it, renews it before it expires (SPEC 5.6) and retries as SPEC 7.3 says. Imports nothing
 * else of this project, so it ships in the small libraries jar.
 */
package dev.platform.identity.client;
