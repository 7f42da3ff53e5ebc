/**
 * The test kit (docs/testing-with-identity.md): the real service in a child process for JUnit 5 and
 * Arquillian tests, with accounts, tokens, forged refusal tokens and key rotation. Published as
 * {@code dev.platform:identity-testkit}; never in the WAR or the libraries.
 */
package dev.platform.identity.testkit;
