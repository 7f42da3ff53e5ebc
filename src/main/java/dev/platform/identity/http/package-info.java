/**
 * What every HTTP entry point shares, servlet or JAX-RS: the caller's address and the unexpected
 * failure answered as a 500 with an incident id (DESIGN decision 6), and the records of the three
 * error shapes every surface answers in (SPEC 7). Imports no feature package.
 */
package dev.platform.identity.http;
