package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.jose.DpopProofs;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ScopeCatalog;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: discovery names both RFC 8705 methods for every endpoint that authenticates clients, in
 * every configuration (the rule: the service cannot know whether a proxy in front passes
 * certificates on), and a server without CAs refuses the registration instead, naming the setting
 * (docs/design-choices.md, "Client certificates").
 */
class DiscoveryResourceTest {
  final Settings settings = TestNodes.settings();
  final TestNodes.Node node =
      TestNodes.node(
          TestDatabases.h2DataSource("discovery-" + UUID.randomUUID()),
          settings,
          Clock.systemUTC());

  @AfterEach
  void close() {
    node.close();
  }

  @Test
  void whenDiscoveryIsReadThenEveryEndpointNamesBothCertificateMethods() {
    DiscoveryResource.Metadata metadata =
        (DiscoveryResource.Metadata)
            new DiscoveryResource(settings.tokens().issuer(), new ScopeCatalog(node.database()))
                .metadata()
                .getEntity();
    List<String> methods =
        List.of(
            "client_secret_basic",
            "client_secret_post",
            "private_key_jwt",
            "tls_client_auth",
            "self_signed_tls_client_auth");
    assertEquals(methods, metadata.tokenEndpointAuthMethodsSupported());
    assertEquals(methods, metadata.revocationEndpointAuthMethodsSupported());
    assertEquals(methods, metadata.introspectionEndpointAuthMethodsSupported());
    assertEquals(true, metadata.tlsClientCertificateBoundAccessTokens());
  }

  @Test
  void whenDiscoveryIsReadThenItNamesTheDpopProofAlgorithmsTheCheckerTakes() {
    DiscoveryResource.Metadata metadata =
        (DiscoveryResource.Metadata)
            new DiscoveryResource(settings.tokens().issuer(), new ScopeCatalog(node.database()))
                .metadata()
                .getEntity();
    assertEquals(List.of("ES256", "RS256", "PS256"), metadata.dpopSigningAlgValuesSupported());
    assertEquals(
        DpopProofs.DEFAULT_ALGORITHMS.stream().map(Enum::name).toList(),
        metadata.dpopSigningAlgValuesSupported());
  }
}
