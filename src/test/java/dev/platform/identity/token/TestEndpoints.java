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

/**
 * The token endpoint of a test node, built by {@link TokenEndpoint} as Startup builds it, without a
 * servlet container.
 */
public final class TestEndpoints {
  /** Key sets for a test where no client publishes one: any lookup fails. */
  static final AccountKeys.Published NONE_PUBLISHED =
      (uri, refresh) -> {
        throw new IllegalStateException("no client publishes a key set in this test");
      };

  private TestEndpoints() {}

  /**
   * The token servlet over {@code node}'s database and key ring at {@code clock}'s time, secrets
   * older than {@code secretMaxAge} refused, each request audited to a new log at that time.
   */
  static TokenServlet token(
      TestNodes.Node node, Settings settings, Clock clock, Optional<Duration> secretMaxAge) {
    return token(node, settings, clock, secretMaxAge, new AuditLog(clock));
  }

  /** As {@link #token(TestNodes.Node, Settings, Clock, Optional)}, audited to {@code audit}. */
  public static TokenServlet token(
      TestNodes.Node node,
      Settings settings,
      Clock clock,
      Optional<Duration> secretMaxAge,
      AuditLog audit) {
    return TokenEndpoint.build(
        policy(settings, secretMaxAge),
        new ServiceAccounts(node.database()),
        new SecretDigest(settings.secrets().pepper(), settings.secrets().previousPeppers()),
        new ScopeCatalog(node.database()),
        node.ring(),
        new UsedJtis(node.database().dataSource()),
        NONE_PUBLISHED,
        audit,
        TokenMeters.none(),
        clock);
  }

  /** The endpoint's policy as Startup reads it from {@code settings}, with {@code secretMaxAge}. */
  static TokenEndpoint.Policy policy(Settings settings, Optional<Duration> secretMaxAge) {
    return new TokenEndpoint.Policy(
        settings.tokens().issuer(),
        settings.tokens().lifetime(),
        settings.tokens().adminLifetime(),
        secretMaxAge,
        settings.clientKeys().assertionAudience()
            == Settings.AssertionAudience.ISSUER_OR_TOKEN_ENDPOINT);
  }

  /**
   * The authenticator of a node whose secrets are digested by {@code digest}: no maximum age, no
   * client publishing a key set.
   */
  static ClientAuthenticator authenticator(
      TestNodes.Node node,
      Settings settings,
      ServiceAccounts accounts,
      SecretDigest digest,
      Clock clock) {
    return TokenEndpoint.clients(
        policy(settings, Optional.empty()),
        accounts,
        digest,
        new UsedJtis(node.database().dataSource()),
        NONE_PUBLISHED,
        clock);
  }
}
