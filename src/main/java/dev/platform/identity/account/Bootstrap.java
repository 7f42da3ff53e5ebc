package dev.platform.identity.account;

import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.config.Settings;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * ADMIN.md "Bootstrap": the first administrator. A configured one is created when missing; with
 * none configured and an empty database, one is generated and its secret printed once.
 */
public final class Bootstrap {
  /** The administration scope the first account holds. */
  public static final String ADMIN_SCOPE = "identity:admin";

  private static final Logger LOG = Logger.getLogger(Bootstrap.class.getName());

  private final ServiceAccounts accounts;
  private final SecretDigest digest;
  private final Clock clock;
  private final SecureRandom random;

  public Bootstrap(
      ServiceAccounts accounts, SecretDigest digest, Clock clock, SecureRandom random) {
    this.accounts = accounts;
    this.digest = digest;
    this.clock = clock;
    this.random = random;
  }

  /** Makes sure an administrator exists, as {@code settings} asks. */
  public void run(Settings.Bootstrap settings) {
    settings
        .account()
        .ifPresentOrElse(
            configured -> ensure(configured, settings.organization()),
            () -> generateIfEmpty(settings.organization(), settings.secretFile()));
  }

  private void ensure(Settings.BootstrapAccount configured, String organization) {
    if (accounts.find(configured.clientId()).isPresent()) {
      return;
    }
    try {
      ServiceAccount admin = admin(configured.clientId(), configured.clientSecret(), organization);
      accounts.add(admin, event(admin, "configured"));
      LOG.info("Created the configured bootstrap administrator " + configured.clientId());
    } catch (RuntimeException e) {
      if (accounts.find(configured.clientId()).isEmpty()) {
        throw e;
      }
    }
  }

  private void generateIfEmpty(String organization, Optional<Path> secretFile) {
    if (!accounts.isEmpty()) {
      return;
    }
    UUID clientId = UUID.randomUUID();
    String secret = ClientSecret.generate(random);
    if (secretFile.isPresent()) {
      generateIntoFile(clientId, secret, organization, secretFile.get());
    } else if (addGenerated(clientId, secret, organization)) {
      LOG.warning(banner(clientId, secret));
    }
  }

  /**
   * The file is staged before the account exists, so a folder that cannot be written fails the
   * start without an administrator whose secret nobody has; if the file cannot be moved into place
   * after all, the account is removed again.
   */
  private void generateIntoFile(UUID clientId, String secret, String organization, Path file) {
    CredentialsFile credentials = CredentialsFile.stage(file, fileContent(clientId, secret));
    try {
      if (!addGenerated(clientId, secret, organization)) {
        credentials.discard();
        return;
      }
    } catch (RuntimeException e) {
      credentials.discard();
      throw e;
    }
    try {
      credentials.publish();
    } catch (RuntimeException e) {
      credentials.discard();
      undo(clientId, e);
      throw e;
    }
    LOG.warning(
        "Generated the bootstrap administrator (scope "
            + ADMIN_SCOPE
            + ") client_id "
            + clientId
            + "; its client_secret is in "
            + file
            + " (owner-only): read it, store it, delete the file.");
  }

  /** An administrator whose secret nobody has would lock the next start out: remove it. */
  private void undo(UUID clientId, RuntimeException failure) {
    try {
      accounts.removeFirst(clientId);
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  private static String fileContent(UUID clientId, String secret) {
    return String.join(
        "\n",
        "# The bootstrap administrator (scope " + ADMIN_SCOPE + "), written once.",
        "# Read it, store it, delete this file: only the secret's digest is kept.",
        "client_id=" + clientId,
        "client_secret=" + secret,
        "");
  }

  private boolean addGenerated(UUID clientId, String secret, String organization) {
    ServiceAccount admin = admin(clientId, secret, organization);
    return accounts.addFirst(admin, event(admin, "generated"));
  }

  /** The audit trail's first row, stored with the administrator it records. */
  private AuditEvent event(ServiceAccount admin, String how) {
    return AuditEvent.bySystem(
        admin.createdAt(),
        "bootstrap",
        admin.clientId().toString(),
        admin.profile().organizationId(),
        Map.of("administrator", how));
  }

  private ServiceAccount admin(UUID clientId, String secret, String organization) {
    AccountProfile profile =
        new AccountProfile(
            "bootstrap administrator", organization, List.of(), List.of(ADMIN_SCOPE), "identity");
    return ServiceAccount.create(clientId, profile, digest.of(secret), clock.instant());
  }

  private static String banner(UUID clientId, String secret) {
    String rule = "=".repeat(72);
    return String.join(
        "\n",
        "",
        rule,
        "BOOTSTRAP ADMINISTRATOR (scope " + ADMIN_SCOPE + "): shown once, never again",
        "  client_id:     " + clientId,
        "  client_secret: " + secret,
        "Store the secret now; only its digest is kept. Create your own accounts with it.",
        rule);
  }
}
