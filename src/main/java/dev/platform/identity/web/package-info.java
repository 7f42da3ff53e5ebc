/**
 * The web application: the composition root that wires every feature, JSON, the catch-all error
 * mapper, the error page of the container's own errors and the health endpoints.
 */
package dev.platform.identity.web;
