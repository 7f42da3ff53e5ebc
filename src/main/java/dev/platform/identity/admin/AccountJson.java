package dev.platform.identity.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.platform.identity.account.ServiceAccount;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A service account as the administration API shows it: never any secret or digest. */
public record AccountJson(
    String clientId,
    String name,
    String organizationId,
    List<String> accessibleOrgs,
    List<String> scopes,
    String serviceName,
    String status,
    String createdAt,
    String updatedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String secretCreatedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String previousSecretExpiresAt,
    String tokenEndpointAuthMethod,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String jwks,
    @JsonInclude(JsonInclude.Include.NON_NULL) String jwksUri) {

  /** The account at {@code now}: the previous secret's expiry only while it still works. */
  static AccountJson from(ServiceAccount account, Instant now) {
    return new AccountJson(
        account.clientId().toString(),
        account.name(),
        account.organizationId(),
        account.accessibleOrgs(),
        account.scopes(),
        account.serviceName(),
        account.status().name().toLowerCase(Locale.ROOT),
        account.createdAt().toString(),
        account.updatedAt().toString(),
        Optional.ofNullable(account.secretCreatedAt()).map(Instant::toString).orElse(null),
        account.previousSecretExpiresAt(now).map(Instant::toString).orElse(null),
        account.tokenEndpointAuthMethod(),
        account.jwks().orElse(null),
        account.jwksUri().orElse(null));
  }

  /**
   * The answer to a creation: the secret, shown this once (SPEC 2.1); none for a private_key_jwt
   * account, which has none.
   */
  public record Created(
      String clientId,
      @JsonInclude(JsonInclude.Include.NON_NULL) String clientSecret,
      String grantType,
      List<String> scopes,
      String name,
      String organizationId,
      List<String> accessibleOrgs,
      String serviceName,
      String status,
      String createdAt,
      String tokenEndpointAuthMethod,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String jwks,
      @JsonInclude(JsonInclude.Include.NON_NULL) String jwksUri) {

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
          account.createdAt().toString(),
          account.tokenEndpointAuthMethod(),
          account.jwks().orElse(null),
          account.jwksUri().orElse(null));
    }
  }

  /**
   * The answer to a secret rotation: the new secret, shown this once, and when the replaced one
   * stops working if it was given an overlap.
   */
  public record NewSecret(
      String clientId,
      String clientSecret,
      @JsonInclude(JsonInclude.Include.NON_NULL) String previousSecretExpiresAt) {

    static NewSecret from(ServiceAccount account, String secret, Instant now) {
      return new NewSecret(
          account.clientId().toString(),
          secret,
          account.previousSecretExpiresAt(now).map(Instant::toString).orElse(null));
    }
  }
}
