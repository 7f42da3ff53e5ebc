package dev.platform.identity.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The revocation feed a verifier checks with {@link RevocationFeed.Stale#FAIL_CLOSED} was last
 * fetched longer ago than its {@link RevocationFeed.Builder#maxStaleness maximum staleness}, or
 * never. No verdict on the token: it may be fine, only the verifier cannot tell whether it was
 * revoked since. The ready-made filters answer 503, not 401 ({@link BearerCheck#of}), so a client
 * keeps its token and backs off rather than fetch new tokens that would fare no better.
 */
public final class StaleRevocationsException extends UncheckedIOException {
  private final transient Instant fetchedAt;

  StaleRevocationsException(String feedUri, Instant fetchedAt, Duration maxStaleness) {
    super(
        new IOException(
            fetchedAt == null
                ? "the revocation feed " + feedUri + " has not been fetched yet"
                : "the revocation feed "
                    + feedUri
                    + " was last fetched at "
                    + fetchedAt
                    + ", longer ago than the maximum staleness of "
                    + maxStaleness));
    this.fetchedAt = fetchedAt;
  }

  /** When the feed now held was fetched; empty when none was yet. */
  public Optional<Instant> fetchedAt() {
    return Optional.ofNullable(fetchedAt);
  }
}
