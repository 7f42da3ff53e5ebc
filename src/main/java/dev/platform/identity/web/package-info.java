/**
 * The web application: the composition root that wires every feature, JSON, the catch-all error
 * mapper and the health endpoints.
 */
package dev.platform.identity.web;
