package dev.platform.identity.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;

/**
 * The last key set {@link RemotePublicKeys} fetched is older than its {@link
 * RemotePublicKeys.Builder#maxStaleness maximum staleness}, and the issuer could not be reached to
 * fetch a newer one. No verdict on the token: a key revoked since that fetch would still be in the
 * set, so the set no longer decides anything. The ready-made filters answer 503, not 401 ({@link
 * BearerCheck#of}).
 */
public final class StaleKeySetException extends UncheckedIOException {
  private final Instant fetchedAt;

  StaleKeySetException(String keySetUri, Instant fetchedAt, Duration age, Duration maxStaleness) {
    super(
        new IOException(
            "the key set of "
                + keySetUri
                + " was last fetched at "
                + fetchedAt
                + ", "
                + age
                + " ago, more than the maximum staleness of "
                + maxStaleness
                + ", and cannot be fetched now"));
    this.fetchedAt = fetchedAt;
  }

  /** When the set now held was fetched. */
  public Instant fetchedAt() {
    return fetchedAt;
  }
}
