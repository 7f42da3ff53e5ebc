package dev.platform.identity.account;

import java.util.List;

/**
 * What an administrator says about a new account.
 *
 * @param name a human-readable name
 * @param organizationId the primary organization (SPEC 2.5 {@code organization_id})
 * @param accessibleOrgs further organizations the account may act for
 * @param scopes the scopes the account may request
 * @param serviceName the token's {@code service_name}
 */
public record AccountProfile(
    String name,
    String organizationId,
    List<String> accessibleOrgs,
    List<String> scopes,
    String serviceName) {

  public AccountProfile {
    accessibleOrgs = List.copyOf(accessibleOrgs);
    scopes = List.copyOf(scopes);
  }
}
