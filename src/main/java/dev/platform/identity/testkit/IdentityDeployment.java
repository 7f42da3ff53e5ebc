package dev.platform.identity.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The service's WAR for the test's own Arquillian container, in place of the kit's child process:
 * the kit's WAR with a {@code META-INF/context.xml} of its own (an H2 database in a fresh
 * owner-only folder, and a key-encryption key, pepper and bootstrap administrator chosen for this
 * JVM), to be deployed at the context root of a container that listens on loopback; then, once
 * Arquillian has deployed it, the same {@link LocalIdentity} as a started service gives.
 *
 * <pre>{@code
 * static final IdentityDeployment IDENTITY = IdentityDeployment.at("http://127.0.0.1:18180");
 *
 * @Deployment(name = "identity", testable = false, order = 1)
 * static WebArchive identity() {
 *   return ShrinkWrap.createFromZipFile(WebArchive.class, IDENTITY.war());   // ROOT.war
 * }
 * ...
 * LocalIdentity identity = IDENTITY.identity();
 * }</pre>
 *
 * <p>The container must run the WAR unpacked (Flyway reads its migrations from {@code
 * WEB-INF/classes}) and have H2 and Tomcat's DBCP pool on its class path, which the kit's
 * dependency brings. The folder is deleted when the JVM ends (docs/testing-with-identity.md).
 */
public final class IdentityDeployment {
  private static final Duration READY_DEADLINE = Duration.ofSeconds(60);

  private final URI issuer;
  private final KitSecrets secrets;
  private Path folder;
  private Path war;
  private LocalIdentity identity;

  private IdentityDeployment(URI issuer, KitSecrets secrets) {
    this.issuer = issuer;
    this.secrets = secrets;
  }

  /**
   * The deployment for a container at {@code baseUrl}, {@code http://127.0.0.1:PORT} as its
   * Arquillian configuration binds it: the issuer of the service's tokens. Only a loopback address
   * and the context root: the service's tokens never name a host another machine reaches.
   */
  public static IdentityDeployment at(String baseUrl) {
    URI base;
    try {
      base = URI.create(baseUrl);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL: " + baseUrl, e);
    }
    boolean loopback =
        "127.0.0.1".equals(base.getHost())
            || "localhost".equals(base.getHost())
            || "[::1]".equals(base.getHost());
    if (!"http".equals(base.getScheme())
        || !loopback
        || base.getPort() < 1
        || base.getRawUserInfo() != null
        || !(base.getRawPath() == null || base.getRawPath().isEmpty())
        || base.getRawQuery() != null
        || base.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "the container's base URL must be http://127.0.0.1:PORT (a loopback host, a port, no"
              + " path): "
              + baseUrl);
    }
    return new IdentityDeployment(base, KitSecrets.generate(new SecureRandom()));
  }

  /** The issuer the deployed service puts in its tokens: the base URL. */
  public URI issuer() {
    return issuer;
  }

  /**
   * The WAR to deploy, {@code ROOT.war} in the deployment's owner-only folder, written at the first
   * call: the kit's WAR, unchanged but for its {@code META-INF/context.xml}.
   */
  public synchronized File war() {
    if (war == null) {
      try {
        folder = KitFolder.create();
        Path made = folder;
        Runtime.getRuntime()
            .addShutdownHook(new Thread(() -> deleteQuietly(made), "identity-testkit-clean"));
        Path written = folder.resolve("ROOT.war");
        Files.copy(ServiceProcess.kitWar(), written);
        Files.setPosixFilePermissions(written, PosixFilePermissions.fromString("rw-------"));
        try (FileSystem zip = FileSystems.newFileSystem(written, Map.of())) {
          Path context = zip.getPath("/META-INF/context.xml");
          Files.createDirectories(context.getParent());
          Files.writeString(
              context, secrets.contextXml(jdbcUrl(), issuer, folder), StandardCharsets.UTF_8);
        }
        war = written;
      } catch (IOException e) {
        throw new UncheckedIOException("the identity WAR cannot be written", e);
      }
    }
    return war.toFile();
  }

  /**
   * The deployed service, once the container has deployed {@link #war()} and it answers ready; its
   * forged times follow the system clock. The container must listen on loopback only.
   */
  public synchronized LocalIdentity identity() {
    if (identity == null) {
      if (war == null) {
        throw new IllegalStateException(
            "deploy war() first: an Arquillian @Deployment returns it at the context root");
      }
      List<String> exposed = ListeningSockets.notOnLoopback(issuer.getPort());
      if (!exposed.isEmpty()) {
        throw new IllegalStateException(
            "the container listens on port "
                + issuer.getPort()
                + " beyond loopback "
                + exposed
                + ": set its bind address to 127.0.0.1 (Arquillian's bindAddress)");
      }
      try {
        ReadyProbe.await(issuer, READY_DEADLINE, () -> true, () -> "");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the deployed service", e);
      }
      try {
        identity = new LocalIdentity(new Deployed(), secrets, Clock.systemUTC());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return identity;
  }

  /**
   * H2 in the folder's files, without {@code AUTO_SERVER}: the service runs in this JVM, so the
   * kit's connections reach the same open database, and no port is opened for it.
   */
  private String jdbcUrl() {
    return "jdbc:h2:file:" + folder.resolve("identity");
  }

  private static void deleteQuietly(Path folder) {
    try {
      KitFolder.delete(folder);
    } catch (IOException e) {
      // The JVM is ending; what is left is owner-only, in the temporary folder.
    }
  }

  /** The deployed WAR: the container, not the kit, stops it when it undeploys. */
  private final class Deployed implements RunningService {
    @Override
    public URI issuer() {
      return issuer;
    }

    @Override
    public String jdbcUrl() {
      return IdentityDeployment.this.jdbcUrl();
    }

    @Override
    public Path war() {
      return war;
    }

    @Override
    public long pid() {
      return ProcessHandle.current().pid();
    }

    @Override
    public void close() {
      // The container undeploys the WAR; the folder goes when the JVM ends.
    }
  }
}
