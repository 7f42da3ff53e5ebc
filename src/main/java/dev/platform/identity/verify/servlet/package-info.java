/**
 * A Jakarta Servlet filter that lets through only requests with a valid bearer token ({@link
 * dev.platform.identity.verify.BearerVerifier}), answering SPEC 7.2 refusals. Needs the Jakarta
 * Servlet 6.0 API (Jakarta EE 10), which the container provides.
 */
package dev.platform.identity.verify.servlet;
