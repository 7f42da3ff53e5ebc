/**
 * A JAX-RS request filter that lets through only requests with a valid bearer token ({@link
 * dev.platform.identity.verify.BearerVerifier}) to resources marked {@link
 * dev.platform.identity.verify.jaxrs.RequireScopes}, answering SPEC 7.2 refusals. Needs the Jakarta
 * REST 3.1 API (Jakarta EE 10) and {@code jakarta.annotation.Priority}, which the runtime provides.
 */
package dev.platform.identity.verify.jaxrs;
