package dev.platform.identity.token;

import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ScopeCatalog;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** The token endpoint of a test node, wired as Startup wires it, without a servlet container. */
final class TestEndpoints {
  private TestEndpoints() {}

  /**
   * The token servlet over {@code node}'s database and key ring: accounts judged at {@code clock}'s
   * time against {@code secretMaxAge}, tokens signed with the JDK's RSA at the system's time.
   */
  static TokenServlet token(
      TestNodes.Node node, Settings settings, Clock clock, Optional<Duration> secretMaxAge) {
    return new TokenServlet(
        new ClientAuthenticator(
            new ServiceAccounts(node.database()),
            new SecretDigest(settings.secretPepper(), settings.previousSecretPeppers()),
            clock,
            secretMaxAge),
        new ScopeCatalog(node.database()),
        issuer(node, settings),
        new AuditLog(clock));
  }

  /** The token issuer of {@code node}: its key ring, the JDK's RSA, the system's time. */
  static TokenIssuer issuer(TestNodes.Node node, Settings settings) {
    return new TokenIssuer(
        settings.issuer(),
        settings.tokenLifetime(),
        settings.adminTokenLifetime(),
        node.ring(),
        Clock.systemUTC());
  }
}
