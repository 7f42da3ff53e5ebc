package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.TestAccounts;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ChannelGrant;
import dev.platform.identity.scope.GrantedScopes;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The signed payload, byte for byte: SPEC 2.5's claims in their order, aliases equal. */
class TokenIssuerTest {
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
  final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  final TestNodes.Node node =
      TestNodes.node(
          TestDatabases.h2DataSource("issuer-" + UUID.randomUUID()), TestNodes.settings(), clock);
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

  @Test
  void whenATokenIsIssuedThenItsPayloadIsTheSpecClaimsInOrder() {
    node.rotation().start();
    UUID clientId = UUID.fromString("6a3f0c2e-0000-4000-8000-00000000002a");
    ServiceAccount account =
        ServiceAccount.create(
            clientId,
            new AccountProfile(
                "reader",
                "org-a",
                List.of("org-b"),
                List.of("catalog:products.view", "catalog:orders.view"),
                "catalog"),
            TestAccounts.digest("digest"),
            NOW);
    GrantedScopes granted =
        new GrantedScopes(
            List.of("catalog:products.view", "catalog:orders.view"),
            new ChannelGrant(
                List.of("catalog.products.*"), List.of(), List.of("catalog.products.*")));

    String jwt = issuer.issue(account, granted).value();

    String payload =
        new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8);
    String jti = payload.replaceAll(".*\"jti\":\"([^\"]+)\".*", "$1");
    UUID.fromString(jti);
    String scopes = "[\"catalog:products.view\",\"catalog:orders.view\"]";
    String channels =
        "{\"subscribe\":[\"catalog.products.*\"],\"publish\":[],\"replay\":[\"catalog.products.*\"]}";
    assertEquals(
        "{\"iss\":\""
            + TestNodes.settings().tokens().issuer()
            + "\",\"aud\":\"*\",\"sub\":\""
            + clientId
            + "\",\"jti\":\""
            + jti
            + "\",\"iat\":1795428000,\"nbf\":1795428000,\"exp\":1795514400"
            + ",\"token_type\":\"service_account\",\"client_id\":\""
            + clientId
            + "\",\"service_name\":\"catalog\",\"scopes\":"
            + scopes
            + ",\"permissions\":"
            + scopes
            + ",\"scope\":\"catalog:products.view catalog:orders.view\""
            + ",\"organization_id\":\"org-a\",\"accessible_orgs\":[\"org-a\",\"org-b\"],\"version\":1"
            + ",\"channel_permissions\":"
            + channels
            + ",\"cs_permissions\":"
            + channels
            + "}",
        payload);
  }
}
