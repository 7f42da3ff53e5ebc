/**
 * A Jakarta Servlet filter that lets through only requests with a valid bearer token ({@link
 * dev.platform.identity.verify.BearerVerifier}), answering SPEC 7.2 refusals. Needs the Servlet 5
 * or later API, which the container provides.
 */
package dev.platform.identity.verify.servlet;
