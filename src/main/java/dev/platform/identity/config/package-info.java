/**
 * The service's settings: read once at start-up from {@code java:comp/env/identity/*} into one
 * immutable {@link dev.platform.identity.config.Settings} record; a missing or invalid entry stops
 * the deployment with a message that names it.
 */
package dev.platform.identity.config;
