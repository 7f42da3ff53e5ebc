package dev.platform.identity.launcher;

import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleEvent;
import org.apache.catalina.LifecycleListener;
import org.apache.catalina.deploy.NamingResourcesImpl;
import org.apache.tomcat.util.descriptor.web.ContextEnvironment;
import org.apache.tomcat.util.descriptor.web.ContextResource;

/**
 * The H2 default: after Tomcat has read the context file (if any), adds every JNDI entry that the
 * file does not set, as a {@code context.xml} with {@code override="false"} would. So a user's
 * {@code --context} file overrides exactly as it does on a real Tomcat.
 */
final class EmbeddedDefaults implements LifecycleListener {
  private final Options options;

  EmbeddedDefaults(Options options) {
    this.options = options;
  }

  @Override
  public void lifecycleEvent(LifecycleEvent event) {
    if (Lifecycle.AFTER_INIT_EVENT.equals(event.getType())) {
      addDefaults(((Context) event.getLifecycle()).getNamingResources());
    }
  }

  private void addDefaults(NamingResourcesImpl naming) {
    Path data = options.data();
    if (naming.findResource("jdbc/identity") == null) {
      naming.addResource(h2(data.resolve("identity")));
    }
    environment(naming, "identity/issuer", options.issuer());
    options
        .clientCas()
        .ifPresent(file -> environment(naming, "identity/tlsClientCaFile", file.toString()));
    if (options.dpopNonces()) {
      environment(naming, "identity/dpopNonces", "true");
    }
    // One address may hold all the request threads but two.
    environment(
        naming,
        "identity/requestThreadsPerAddress",
        Integer.toString(Math.max(1, options.threads() - 2)));
    environment(
        naming, "identity/databaseConcurrency", Integer.toString(databaseConcurrency(options)));
    if (unset(naming, "identity/keyEncryptionKey", "identity/keyEncryptionKeyFile")) {
      environment(
          naming,
          "identity/keyEncryptionKey",
          LocalSecrets.readOrGenerate(data.resolve("key-encryption-key"), "key-encryption key"));
    }
    if (unset(naming, "identity/secretPepper", "identity/secretPepperFile")) {
      environment(
          naming,
          "identity/secretPepper",
          LocalSecrets.readOrGenerate(data.resolve("secret-pepper"), "client-secret pepper"));
    }
  }

  /**
   * Three quarters of the request threads may wait on the database, so that a quarter (at least 2
   * of the default 8) always remains for the key list, discovery and health.
   */
  static int databaseConcurrency(Options options) {
    return Math.max(1, options.threads() * 3 / 4);
  }

  /** Neither form of a secret is in the context file: a file form set there wins. */
  private static boolean unset(NamingResourcesImpl naming, String name, String fileName) {
    ContextEnvironment file = naming.findEnvironment(fileName);
    return naming.findEnvironment(name) == null
        && (file == null || file.getValue() == null || file.getValue().isBlank());
  }

  private static void environment(NamingResourcesImpl naming, String name, String value) {
    if (naming.findEnvironment(name) != null) {
      return;
    }
    ContextEnvironment entry = new ContextEnvironment();
    entry.setName(name);
    entry.setType(String.class.getName());
    entry.setValue(value);
    entry.setOverride(false);
    naming.addEnvironment(entry);
  }

  /**
   * H2 in file mode; WRITE_DELAY=0 so a commit is on disk before the response leaves. A pool wait
   * of a second at most.
   */
  private static ContextResource h2(Path database) {
    ContextResource resource = new ContextResource();
    resource.setName("jdbc/identity");
    resource.setAuth("Container");
    resource.setType("javax.sql.DataSource");
    resource.setProperty("driverClassName", "org.h2.Driver");
    resource.setProperty(
        "url", "jdbc:h2:file:" + database + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
    resource.setProperty("username", "sa");
    resource.setProperty("password", "");
    resource.setProperty("maxTotal", "20");
    // The bulkhead keeps the service below maxTotal, so a wait is short or a fault.
    resource.setProperty("maxWaitMillis", "1000");
    resource.setCloseMethod("close");
    return resource;
  }
}
