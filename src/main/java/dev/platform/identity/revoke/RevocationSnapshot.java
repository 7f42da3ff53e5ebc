package dev.platform.identity.revoke;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a node knows of the revocations at one moment, immutable (STYLE 11): the revoked jtis, the
 * accounts' cut-offs, the feed made of them, and the database version they were read at. Entries
 * whose last covered token has expired are left out, so the snapshot and the feed shrink on their
 * own.
 *
 * @param version {@code revocation_version.version} when the rows were read; -1 before any read
 * @param nextExpiry when the first entry leaves, or null when there is none
 */
record RevocationSnapshot(
    String issuer,
    long version,
    Map<String, RevokedToken> tokens,
    Map<String, AccountCutoff> accounts,
    FeedDocument feed,
    Instant nextExpiry) {

  static RevocationSnapshot empty(String issuer) {
    return of(issuer, -1, List.of(), List.of(), Instant.MIN);
  }

  /** The entries still needed at {@code now}. */
  static RevocationSnapshot of(
      String issuer,
      long version,
      Collection<RevokedToken> tokens,
      Collection<AccountCutoff> accounts,
      Instant now) {
    Map<String, RevokedToken> liveTokens = new HashMap<>();
    tokens.stream()
        .filter(token -> token.expiresAt().isAfter(now))
        .forEach(token -> liveTokens.put(token.jti(), token));
    Map<String, AccountCutoff> liveAccounts = new HashMap<>();
    accounts.stream()
        .filter(cutoff -> cutoff.until().isAfter(now))
        .forEach(
            cutoff ->
                liveAccounts.merge(key(cutoff.clientId()), cutoff, RevocationSnapshot::later));
    Instant next =
        Stream.concat(
                liveTokens.values().stream().map(RevokedToken::expiresAt),
                liveAccounts.values().stream().map(AccountCutoff::until))
            .min(Instant::compareTo)
            .orElse(null);
    return new RevocationSnapshot(
        issuer,
        version,
        Map.copyOf(liveTokens),
        Map.copyOf(liveAccounts),
        FeedDocument.of(issuer, liveTokens.values(), liveAccounts.values()),
        next);
  }

  /** This snapshot and {@code token}, revoked on this node before the next read. */
  RevocationSnapshot with(RevokedToken token, Instant now) {
    List<RevokedToken> more = new ArrayList<>(tokens.values());
    more.add(token);
    return of(issuer, version, more, accounts.values(), now);
  }

  /** This snapshot and {@code cutoff}, which replaces an earlier one of its account. */
  RevocationSnapshot with(AccountCutoff cutoff, Instant now) {
    List<AccountCutoff> more = new ArrayList<>(accounts.values());
    more.add(cutoff);
    return of(issuer, version, tokens.values(), more, now);
  }

  /** Without the entries that have left by {@code now}; this very snapshot when none has. */
  RevocationSnapshot pruned(Instant now) {
    return nextExpiry == null || nextExpiry.isAfter(now)
        ? this
        : of(issuer, version, tokens.values(), accounts.values(), now);
  }

  /**
   * Whether a token of {@code clientId} with this {@code jti} and {@code issuedAt} is revoked: its
   * jti is listed, or its account's cut-off is after its iat (a token without iat is covered).
   */
  boolean isRevoked(String clientId, String jti, Instant issuedAt) {
    if (jti != null && tokens.containsKey(jti)) {
      return true;
    }
    AccountCutoff cutoff = clientId == null ? null : accounts.get(key(clientId));
    return cutoff != null && cutoff.covers(issuedAt);
  }

  /** The cut-off of an account, if one is live. */
  AccountCutoff cutoffOf(String clientId) {
    return accounts.get(key(clientId));
  }

  private static String key(String clientId) {
    return clientId.toLowerCase(Locale.ROOT);
  }

  /** Two cut-offs of one account as one: the later not-before, kept as long as either. */
  private static AccountCutoff later(AccountCutoff one, AccountCutoff other) {
    return new AccountCutoff(
        one.clientId(),
        latest(one.notBefore(), other.notBefore()),
        latest(one.until(), other.until()));
  }

  private static Instant latest(Instant one, Instant other) {
    return one.isAfter(other) ? one : other;
  }
}
