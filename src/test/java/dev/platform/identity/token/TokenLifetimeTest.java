package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.GrantedScopes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** identity/adminTokenLifetime: a token granted an identity: scope lives shorter, others do not. */
class TokenLifetimeTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  final TestNodes.Node node =
      TestNodes.node(
          TestDatabases.h2DataSource("lifetime-" + UUID.randomUUID()), TestNodes.settings(), clock);
  final TokenIssuer issuer =
      new TokenIssuer(
          TestNodes.settings().tokens().issuer(),
          Duration.ofHours(24),
          Duration.ofHours(1),
          node.ring(),
          clock,
          TokenMeters.none());

  @AfterEach
  void close() {
    node.close();
  }

  long lifetimeOf(String... scopes) {
    node.rotation().start();
    ServiceAccount account =
        ServiceAccount.create(
            UUID.randomUUID(),
            new AccountProfile("a", "org", List.of(), List.of(scopes), "svc"),
            TestAccounts.digest("digest"),
            NOW);
    GrantedScopes granted =
        new GrantedScopes(List.of(scopes), new ChannelGrant(List.of(), List.of(), List.of()));
    TokenIssuer.IssuedToken token = issuer.issue(account, granted);
    return Duration.between(token.issuedAt(), token.expiresAt()).toSeconds();
  }

  @Test
  void whenATokenIsGrantedAnIdentityScopeThenItLivesTheAdministratorsLifetime() {
    assertEquals(3600, lifetimeOf("identity:accounts.manage", "kitchen:orders.create"));
  }

  @Test
  void whenATokenIsGrantedNoIdentityScopeThenItLivesTheTokenLifetime() {
    assertEquals(86400, lifetimeOf("kitchen:orders.create", "identityx:read"));
  }
}
