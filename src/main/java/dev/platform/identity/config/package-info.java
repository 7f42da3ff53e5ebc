/**
 * The service's settings: read once at start-up from {@code java:comp/env/identity/*} into one
 * immutable {@link dev.platform.identity.config.Settings} record of groups, one per consumer; a
 * missing or invalid entry stops the deployment with a message that names it. Each entry is
 * declared once, in {@link dev.platform.identity.config.Setting}.
 */
package dev.platform.identity.config;
