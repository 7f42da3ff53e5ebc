package dev.platform.identity.token;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ScopeCatalog;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: discovery names {@code tls_client_auth} (RFC 8705 §2.1) only on a server with CAs for
 * it ({@code identity/tlsClientCaFile}): without them no such client can be registered or
 * authenticate, so the method is not one this server supports (RFC 8414 §2).
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

  DiscoveryResource.Metadata metadata(boolean clientAuthorities) {
    return (DiscoveryResource.Metadata)
        new DiscoveryResource(
                settings.tokens().issuer(), new ScopeCatalog(node.database()), clientAuthorities)
            .metadata()
            .getEntity();
  }

  @Test
  void whenTheServerHasClientCasThenEveryEndpointNamesTlsClientAuth() {
    DiscoveryResource.Metadata metadata = metadata(true);
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
  }

  @Test
  void whenTheServerHasNoClientCaThenNoEndpointNamesTlsClientAuth() {
    DiscoveryResource.Metadata metadata = metadata(false);
    List<String> methods =
        List.of(
            "client_secret_basic",
            "client_secret_post",
            "private_key_jwt",
            "self_signed_tls_client_auth");
    assertEquals(methods, metadata.tokenEndpointAuthMethodsSupported());
    assertEquals(methods, metadata.revocationEndpointAuthMethodsSupported());
    assertEquals(methods, metadata.introspectionEndpointAuthMethodsSupported());
  }
}
