package dev.platform.identity.it;

import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.ClientSecret;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.config.TestSettings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.web.Startup;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * A second node on the deployment's in-memory database (same JVM): sets up and changes accounts the
 * way an administrator's change on another node would reach the service under test.
 */
final class SecondNode implements AutoCloseable {
  final Database database;
  final ServiceAccounts accounts;
  final SecretDigest digest = new SecretDigest(Deployments.pepper());

  SecondNode(String databaseName) {
    // With the deployment's own Java migrations, as every node opens the database (the test
    // deployments' keys are TestSettings').
    database =
        Database.open(
            TestDatabases.h2DataSource(databaseName),
            Startup.javaMigrations(TestSettings.with(Map.of()).secrets()));
    accounts = new ServiceAccounts(database);
  }

  /** A client's credentials, as the administrator receives them. */
  record Client(UUID id, String secret) {}

  Client create(AccountProfile profile) {
    UUID id = UUID.randomUUID();
    String secret = ClientSecret.generate(new SecureRandom());
    accounts.add(ServiceAccount.create(id, profile, digest.of(secret), Instant.now()));
    return new Client(id, secret);
  }

  /** Gives the account a new secret and returns it. */
  String rotateSecret(UUID id) {
    String secret = ClientSecret.generate(new SecureRandom());
    accounts.change(id, account -> account.replaceSecret(digest.of(secret), Instant.now()));
    return secret;
  }

  @Override
  public void close() {
    database.close();
  }
}
