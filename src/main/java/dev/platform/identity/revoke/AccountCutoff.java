package dev.platform.identity.revoke;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Every token of an account issued before {@code notBefore} is revoked; the entry is needed until
 * {@code until}, when the last token it can cover has expired.
 *
 * @param clientId the account's client_id, in its canonical (lower-case) form
 * @param notBefore a whole second: a token whose {@code iat} is before it is revoked
 * @param until {@code notBefore} plus the longest token lifetime
 */
public record AccountCutoff(String clientId, Instant notBefore, Instant until) {
  /**
   * The cut-off of a revocation at {@code at}: {@code notBefore} is the second after {@code at}'s,
   * so that the feed's strict {@code iat < not_before} covers every token issued at or before
   * {@code at}, those of {@code at}'s own second included (iat is in whole seconds). A token issued
   * later within that same second is covered too: the price of whole-second iats, the same rule the
   * administration API has applied since issue 21 to tokens issued in the second of an account's
   * change. A client refused so asks for a new token (SPEC 5.6), which a second later is valid.
   */
  static AccountCutoff at(String clientId, Instant at, Duration longestLifetime) {
    Instant notBefore = at.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    return new AccountCutoff(clientId, notBefore, notBefore.plus(longestLifetime));
  }

  /** Whether a token issued at {@code issuedAt} is revoked; one without {@code iat} is. */
  boolean covers(Instant issuedAt) {
    return issuedAt == null || issuedAt.isBefore(notBefore);
  }
}
