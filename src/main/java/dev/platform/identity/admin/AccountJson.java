package dev.platform.identity.admin;

import dev.platform.identity.account.ServiceAccount;
import java.util.List;
import java.util.Locale;

/** A service account as the administration API shows it: never any secret or digest. */
record AccountJson(
    String clientId,
    String name,
    String organizationId,
    List<String> accessibleOrgs,
    List<String> scopes,
    String serviceName,
    String status,
    String createdAt,
    String updatedAt) {

  static AccountJson from(ServiceAccount account) {
    return new AccountJson(
        account.clientId().toString(),
        account.name(),
        account.organizationId(),
        account.accessibleOrgs(),
        account.scopes(),
        account.serviceName(),
        account.status().name().toLowerCase(Locale.ROOT),
        account.createdAt().toString(),
        account.updatedAt().toString());
  }

  /** The answer to a creation: the secret, shown this once (SPEC 2.1). */
  record Created(
      String clientId,
      String clientSecret,
      String grantType,
      List<String> scopes,
      String name,
      String organizationId,
      List<String> accessibleOrgs,
      String serviceName,
      String status,
      String createdAt) {

    static Created from(ServiceAccount account, String secret) {
      return new Created(
          account.clientId().toString(),
          secret,
          "client_credentials",
          account.scopes(),
          account.name(),
          account.organizationId(),
          account.accessibleOrgs(),
          account.serviceName(),
          "active",
          account.createdAt().toString());
    }
  }

  /** The answer to a secret rotation: the new secret, shown this once. */
  record NewSecret(String clientId, String clientSecret) {}
}
