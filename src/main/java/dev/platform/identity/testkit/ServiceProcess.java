package dev.platform.identity.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The service's launcher in a child process of its own (its own Tomcat, log and class path, apart
 * from the test's), on 127.0.0.1 and a free port, with H2 in a fresh owner-only folder and the
 * settings the kit chose ({@link KitSecrets}) in a context file there.
 */
final class ServiceProcess implements RunningService {
  /** Where a consumer's build finds the WAR: inside the kit's jar. */
  static final String WAR_RESOURCE = "/dev/platform/identity/testkit/identity.war";

  /** A system property naming a WAR to run instead (this repository's own tests). */
  static final String WAR_PROPERTY = "identity.testkit.war";

  private static final Duration START_DEADLINE = Duration.ofSeconds(90);
  private static final Duration STOP_DEADLINE = Duration.ofSeconds(15);

  /** The kit's WAR once it is in the cache and checked: reading and hashing it again costs time. */
  private static Path cachedWar;

  private final Process process;
  private final Path data;
  private final URI issuer;
  private final ClassDataArchive archive;

  private ServiceProcess(Process process, Path data, URI issuer, ClassDataArchive archive) {
    this.process = process;
    this.data = data;
    this.issuer = issuer;
    this.archive = archive;
  }

  /** Starts the service with {@code secrets}, and returns once it answers ready. */
  static ServiceProcess start(KitSecrets secrets) throws IOException, InterruptedException {
    Path war = kitWar();
    Path data = KitFolder.create();
    Path context =
        KitFolder.ownerOnlyFile(data, "context.xml", secrets.contextXml(jdbcUrl(data), null, data));
    int port = freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // H2's AUTO_SERVER listens where this says, else on every interface.
    command.add("-Dh2.bindAddress=127.0.0.1");
    // A short-lived service: the client compiler alone and the serial collector start it in about
    // half the time on two cores, and no jar of the WAR needs Tomcat's scan (the application
    // registers its own resources), which took a third of the rest.
    command.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Dtomcat.util.scan.StandardJarScanFilter.jarsToSkip=*.jar"));
    for (String open :
        List.of("java.base/java.lang", "java.base/java.io", "java.rmi/sun.rmi.transport")) {
      command.add("--add-opens=" + open + "=ALL-UNNAMED");
    }
    String classPath = classPath();
    ClassDataArchive archive = ClassDataArchive.in(ClassDataArchive.cache(), classPath);
    command.addAll(archive.options());
    command.addAll(List.of("-cp", classPath, ParentBoundLauncher.class.getName()));
    command.addAll(
        List.of(
            "--bind", "127.0.0.1",
            "--port", Integer.toString(port),
            "--data", data.toString(),
            "--context", context.toString(),
            "--war", war.toString()));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(data.resolve("service.log").toFile())
            .start();
    ServiceProcess service =
        new ServiceProcess(process, data, URI.create("http://127.0.0.1:" + port), archive);
    try {
      service.awaitReady();
    } catch (InterruptedException | RuntimeException e) {
      service.close();
      throw e;
    }
    return service;
  }

  @Override
  public URI issuer() {
    return issuer;
  }

  @Override
  public String jdbcUrl() {
    return jdbcUrl(data);
  }

  /**
   * H2 in the data folder's files with {@code AUTO_SERVER}: the service opens it first and serves
   * it to the kit's connections from a port the child binds to 127.0.0.1 ({@code
   * -Dh2.bindAddress}), found through the lock file in the owner-only folder.
   */
  static String jdbcUrl(Path data) {
    return "jdbc:h2:file:" + data.resolve("identity") + ";AUTO_SERVER=TRUE";
  }

  @Override
  public Path war() throws IOException {
    return kitWar();
  }

  @Override
  public long pid() {
    return process.pid();
  }

  /** The service's output so far, for a failure's message. */
  String log() {
    try {
      return Files.readString(data.resolve("service.log"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void awaitReady() throws InterruptedException {
    ReadyProbe.await(issuer, START_DEADLINE, process::isAlive, () -> ":\n" + log());
    // The port was free when the kit chose it, and the child bound it later: a process that took
    // it meanwhile would be sent the administrator's credentials next.
    if (!ListeningSockets.holds(process.pid(), issuer.getPort())) {
      throw new IllegalStateException(
          "another process answers on "
              + issuer
              + ", which the kit chose for its service; it is not used:\n"
              + log());
    }
  }

  /** Stops the process (its shutdown hook stops Tomcat) and deletes the data folder. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(STOP_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    archive.childEnded();
    try {
      KitFolder.delete(data);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + data, e);
    }
  }

  /**
   * The launcher's classes and what it runs on, each from the jar (or folder) that holds it here:
   * Tomcat, its DBCP pool and annotations, H2.
   */
  static String classPath() {
    Set<String> entries = new LinkedHashSet<>();
    for (String name :
        List.of(
            "dev.platform.identity.launcher.Launcher",
            ParentBoundLauncher.class.getName(),
            "org.apache.catalina.startup.Tomcat",
            "org.apache.tomcat.dbcp.dbcp2.BasicDataSourceFactory",
            "jakarta.annotation.PostConstruct",
            "org.h2.Driver")) {
      entries.add(codeSource(name).toString());
    }
    return String.join(File.pathSeparator, entries);
  }

  private static Path codeSource(String className) {
    try {
      Class<?> type = Class.forName(className, false, ServiceProcess.class.getClassLoader());
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
      throw new IllegalStateException(
          className + " is not on the test class path: add the kit's dependency as documented", e);
    }
  }

  /**
   * The WAR: the system property's, else the one inside the kit's jar, copied once into the user's
   * cache under its SHA-256, so that later runs reuse it.
   */
  static synchronized Path kitWar() throws IOException {
    String named = System.getProperty(WAR_PROPERTY, "");
    if (!named.isBlank()) {
      return Path.of(named).toAbsolutePath();
    }
    if (cachedWar != null && Files.isRegularFile(cachedWar)) {
      return cachedWar;
    }
    byte[] bytes;
    try (InputStream in = ServiceProcess.class.getResourceAsStream(WAR_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "the kit's jar holds no " + WAR_RESOURCE + ", and -D" + WAR_PROPERTY + " is not set");
      }
      bytes = in.readAllBytes();
    }
    cachedWar = cached(ClassDataArchive.cache(), bytes);
    return cachedWar;
  }

  /**
   * {@code bytes} in {@code cache} under their SHA-256: the file already there when it holds
   * exactly those bytes, else (absent, damaged, replaced, a link) a new copy moved over it. The
   * name alone proves nothing about the content, and the kit runs that WAR and loads its classes.
   */
  static Path cached(Path cache, byte[] bytes) throws IOException {
    String sha256 = ClassDataArchive.sha256(bytes);
    Path war = cache.resolve("identity-" + sha256.substring(0, 16) + ".war");
    if (Files.isRegularFile(war, LinkOption.NOFOLLOW_LINKS)
        && sha256.equals(ClassDataArchive.sha256(Files.readAllBytes(war)))) {
      return war;
    }
    Path staged = Files.createTempFile(cache, "identity-", ".war.part");
    try {
      Files.write(staged, bytes);
      Files.move(staged, war, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(staged);
    }
    return war;
  }

  /**
   * A port free on loopback now. Another process may take it before the launcher binds it; the
   * launcher then fails to start and says so.
   */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
