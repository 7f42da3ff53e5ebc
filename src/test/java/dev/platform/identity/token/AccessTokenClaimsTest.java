package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.GrantedScopes;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** SPEC 2.5's aliases carry the very value of the claim they stand for. */
class AccessTokenClaimsTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  final ServiceAccount account =
      ServiceAccount.create(
          UUID.randomUUID(),
          new AccountProfile("a", "org-a", List.of(), List.of("catalog:products.view"), "catalog"),
          TestAccounts.digest("digest"),
          NOW);
  final GrantedScopes granted =
      new GrantedScopes(
          List.of("catalog:products.view"),
          new ChannelGrant(List.of("catalog.products.*"), List.of(), List.of()));

  final AccessTokenClaims claims =
      AccessTokenClaims.of(
          URI.create("https://identity.example.com"),
          account,
          granted,
          "jti",
          NOW,
          NOW.plusSeconds(60));

  @Test
  void whenClaimsAreBuiltThenSubAndClientIdAreTheClientId() {
    assertEquals(account.clientId().toString(), claims.sub());
    assertEquals(claims.sub(), claims.clientId());
  }

  @Test
  void whenClaimsAreBuiltThenPermissionsAreTheScopes() {
    assertEquals(granted.scopes(), claims.scopes());
    assertEquals(claims.scopes(), claims.permissions());
  }

  @Test
  void whenClaimsAreBuiltThenCsPermissionsAreTheChannelPermissions() {
    assertEquals(granted.channels(), claims.channelPermissions());
    assertEquals(claims.channelPermissions(), claims.csPermissions());
  }

  @Test
  void whenClaimsAreBuiltThenNotBeforeIsIssuedAt() {
    assertEquals(NOW.getEpochSecond(), claims.iat());
    assertEquals(claims.iat(), claims.nbf());
  }
}
