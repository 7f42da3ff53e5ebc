package dev.platform.identity.token;

import java.time.Instant;

/**
 * A client's {@code jwks_uri} gave no key set the service may use: none was fetched yet, or the
 * last good one is older than the maximum age. The assertion cannot be checked. Its message names
 * the URI and the cause, for the server's log; {@link #description()} is what the client is told.
 */
final class ClientKeysUnavailableException extends RuntimeException {
  /** The set is fetched in the background; the client only has to ask again. */
  static final String NOT_YET =
      "the client's key set is not yet available from its jwks_uri; retry shortly";

  /** A set nobody could refresh within the maximum age is no longer trusted. */
  static final String TOO_OLD =
      "the client's key set could not be fetched from its jwks_uri for longer than this server"
          + " keeps a key set; it is refused until a fetch succeeds";

  private final boolean expired;

  /**
   * No set was had from {@code jwksUri} yet; {@code cause}, if any, says why the last try failed.
   */
  ClientKeysUnavailableException(String jwksUri, Throwable cause) {
    super(
        "the keys at jwks_uri "
            + jwksUri
            + " cannot be fetched"
            + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()),
        cause);
    this.expired = false;
  }

  private ClientKeysUnavailableException(String jwksUri, Instant fetchedAt, Throwable cause) {
    super(
        "the keys at jwks_uri "
            + jwksUri
            + " were last fetched at "
            + fetchedAt
            + ", longer ago than the maximum age"
            + (cause == null || cause.getMessage() == null ? "" : "; since: " + cause.getMessage()),
        cause);
    this.expired = true;
  }

  /** The last good set from {@code jwksUri}, fetched at {@code fetchedAt}, is too old. */
  static ClientKeysUnavailableException expired(
      String jwksUri, Instant fetchedAt, Throwable cause) {
    return new ClientKeysUnavailableException(jwksUri, fetchedAt, cause);
  }

  /** Whether a set was had, but grew older than the maximum age. */
  boolean expired() {
    return expired;
  }

  /** The {@code error_description} of the client's {@code invalid_client}. */
  String description() {
    return expired ? TOO_OLD : NOT_YET;
  }
}
