package dev.platform.identity.token;

import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks a client's id and secret against its account (SPEC 7.1, 3.1): one primary-key read and one
 * constant-time digest compare, the same work whether or not the account exists.
 */
final class ClientAuthenticator {
  static final String FAILED = "Client authentication failed: unknown client or wrong secret";
  static final String REVOKED = "The client has been revoked";

  private final ServiceAccounts accounts;
  private final SecretDigest digest;

  /** Compared against when there is no account, so timing tells nothing about existence. */
  private final String decoy;

  ClientAuthenticator(ServiceAccounts accounts, SecretDigest digest) {
    this.accounts = accounts;
    this.digest = digest;
    this.decoy = digest.of(UUID.randomUUID().toString());
  }

  /**
   * The active account these credentials prove.
   *
   * @throws OAuthError {@code invalid_client}: with the "revoked" text only when the secret matches
   *     a deactivated or deleted account, so strangers learn nothing about an account's state
   */
  ServiceAccount authenticate(TokenRequest request) {
    Optional<ServiceAccount> account = request.accountId().flatMap(accounts::find);
    String stored = account.map(ServiceAccount::secretDigest).orElse(decoy);
    boolean matches = digest.matches(request.clientSecret(), stored);
    if (account.isEmpty() || !matches) {
      throw OAuthError.invalidClient(FAILED, request.usedBasic());
    }
    if (!account.get().isActive()) {
      throw OAuthError.invalidClient(REVOKED, request.usedBasic());
    }
    return account.get();
  }
}
