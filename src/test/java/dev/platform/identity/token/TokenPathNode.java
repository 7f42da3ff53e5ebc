package dev.platform.identity.token;

import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.scope.ScopeCatalog;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * One node's token endpoint over a fresh H2 database, for the certificate clients' token-path
 * tests: its accounts, its secret digest, and a clock the test moves. The keys start with {@link
 * #start}; {@link #close} ends the node. No client publishes a key set here.
 */
final class TokenPathNode implements AutoCloseable {
  final Settings settings = TestNodes.settings();
  final DataSource data;
  final TestNodes.Node node;
  final MutableClock clock;
  final SecretDigest digest = new SecretDigest(settings.secrets().pepper());
  final ServiceAccounts accounts;
  final TokenServlet endpoint;

  /**
   * @param name the database's name, made unique here
   * @param start the clock's first time
   * @param authorities the CAs a tls_client_auth client's certificate must chain to
   */
  TokenPathNode(String name, Instant start, List<X509Certificate> authorities) {
    this(name, start, authorities, UnaryOperator.identity());
  }

  /** As above, the endpoint's policy changed by {@code policy}, such as DPoP nonces turned on. */
  TokenPathNode(
      String name,
      Instant start,
      List<X509Certificate> authorities,
      UnaryOperator<TokenEndpoint.Policy> policy) {
    data = TestDatabases.h2DataSource(name + "-" + UUID.randomUUID());
    node = TestNodes.node(data, settings, Clock.systemUTC());
    clock = new MutableClock(start);
    accounts = new ServiceAccounts(node.database());
    endpoint =
        TokenEndpoint.build(
            policy.apply(
                new TokenEndpoint.Policy(
                    settings.tokens().issuer(),
                    settings.tokens().lifetime(),
                    settings.tokens().adminLifetime(),
                    Optional.empty(),
                    true,
                    authorities)),
            accounts,
            digest,
            new ScopeCatalog(node.database()),
            node.ring(),
            new UsedJtis(data),
            (uri, refresh) -> {
              throw new IllegalStateException("no published sets here");
            },
            new AuditLog(clock),
            TokenMeters.none(),
            clock);
  }

  /** Starts the signing keys. */
  void start() {
    node.rotation().start();
  }

  @Override
  public void close() {
    node.close();
  }
}
