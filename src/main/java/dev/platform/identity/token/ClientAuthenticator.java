package dev.platform.identity.token;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Checks a client's id and secret against its account (SPEC 7.1, 3.1): one primary-key read and one
 * constant-time digest compare, the same work whether or not the account exists (issue 26).
 */
public final class ClientAuthenticator {
  static final String FAILED = "Client authentication failed: unknown client or wrong secret";
  static final String REVOKED = "The client has been revoked";

  private final ServiceAccounts accounts;
  private final SecretDigest digest;

  /**
   * Read, built and compared against when there is no account, so timing tells nothing about
   * existence (issue 26). Its digest is of a random secret nobody knows; it is never stored and
   * never authenticates, since {@link ServiceAccounts.Lookup#found} is false for it. Its lists hold
   * a word each like an account's: an empty list is parsed faster than any stored one.
   */
  private final ServiceAccount decoy;

  /** Authenticates against {@code accounts}, comparing digests made by {@code digest}. */
  public ClientAuthenticator(ServiceAccounts accounts, SecretDigest digest) {
    this.accounts = accounts;
    this.digest = digest;
    this.decoy =
        ServiceAccount.create(
            UUID.randomUUID(),
            new AccountProfile("decoy", "decoy", List.of(), List.of("decoy:none"), "decoy"),
            digest.of(UUID.randomUUID().toString()),
            Instant.EPOCH);
  }

  /**
   * The active account these credentials prove.
   *
   * @throws OAuthError {@code invalid_client}: with the "revoked" text only when the secret matches
   *     a deactivated or deleted account, so strangers learn nothing about an account's state
   */
  ServiceAccount authenticate(TokenRequest request) {
    ServiceAccounts.Lookup lookup =
        request
            .accountId()
            .map(id -> accounts.findOrDecoy(id, decoy))
            .orElseGet(() -> new ServiceAccounts.Lookup(false, decoy));
    ServiceAccount account = lookup.account();
    boolean matches = digest.matches(request.clientSecret(), account.secretDigest());
    if (!lookup.found() || !matches) {
      throw OAuthError.invalidClient(FAILED, request.usedBasic());
    }
    if (!account.isActive()) {
      throw OAuthError.invalidClient(REVOKED, request.usedBasic());
    }
    return account;
  }
}
