package dev.platform.identity.token;

/**
 * A client's {@code jwks_uri} gave no usable key set and none was cached (issue 22): the assertion
 * cannot be checked. Its message names the URI and the cause, for the server's log.
 */
final class ClientKeysUnavailableException extends RuntimeException {
  ClientKeysUnavailableException(String jwksUri, Throwable cause) {
    super(
        "the keys at jwks_uri "
            + jwksUri
            + " cannot be fetched"
            + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()),
        cause);
  }
}
