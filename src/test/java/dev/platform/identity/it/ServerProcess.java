package dev.platform.identity.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real application server in its own process, its console in a log file under {@code target/}:
 * ready when {@code /health/ready} answers 200 before a deadline, stopped by its PID (SIGTERM, then
 * SIGKILL after a grace period). Only the process this object started is ever signalled.
 */
final class ServerProcess implements AutoCloseable {
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private final String name;
  private final Process process;
  private final Path log;
  private final long startedNanos = System.nanoTime();

  private ServerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** Starts {@code command} with its output (stdout and stderr) appended to {@code log}. */
  static ServerProcess start(String name, List<String> command, Path log) throws IOException {
    return start(name, command, Map.of(), log);
  }

  /** The same, with {@code environment} added to this process's (SoftHSM2's SOFTHSM2_CONF). */
  static ServerProcess start(
      String name, List<String> command, Map<String, String> environment, Path log)
      throws IOException {
    return start(name, command, environment, null, log);
  }

  /**
   * The same, run in {@code directory} (a doc's {@code cd FOLDER &&} before the start), or in the
   * test's own where it is null.
   */
  static ServerProcess start(
      String name, List<String> command, Map<String, String> environment, Path directory, Path log)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    builder.environment().putAll(environment);
    System.out.printf("%s runs on Java %s (%s)%n", name, javaVersion(), command.get(0));
    return new ServerProcess(name, builder.start(), log);
  }

  /**
   * The JDK the servers run on: {@code -Didentity.server.java.home} (CI's second run on Java 25,
   * the WAR built for 17 unchanged), else the test's own.
   */
  static Path javaHome() {
    String chosen = System.getProperty("identity.server.java.home", "");
    return Path.of(chosen.isBlank() ? System.getProperty("java.home") : chosen);
  }

  /**
   * The process {@code pid} runs {@link #javaHome}'s {@code java}: for servers whose own scripts
   * start the JVM from {@code JAVA_HOME} (WildFly, Payara Server's asadmin), where a script could
   * pick another one.
   */
  static void assertRunsOnTheChosenJava(String server, long pid) throws IOException {
    Path executable = Path.of("/proc/" + pid + "/exe").toRealPath();
    Path chosen = javaHome().toRealPath();
    if (!executable.startsWith(chosen)) {
      throw new AssertionError(server + " runs " + executable + ", not the java of " + chosen);
    }
    System.out.printf("%s runs on Java %s (%s)%n", server, javaVersion(), executable);
  }

  /** The path to {@link #javaHome}'s {@code java}. */
  static String java() {
    return javaHome().resolve("bin").resolve("java").toString();
  }

  /** {@link #javaHome}'s version, from its {@code release} file: what a server says it runs on. */
  static String javaVersion() {
    try {
      return Files.readAllLines(javaHome().resolve("release")).stream()
          .filter(line -> line.startsWith("JAVA_VERSION="))
          .map(line -> line.substring("JAVA_VERSION=".length()).replace("\"", ""))
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown (" + e + ")";
    }
  }

  /**
   * The service's one line saying which provider signs tokens (RsaProvider.choose), from a server's
   * log: ACCP with its version, or the JDK's with the reason ACCP did not load (its native library
   * on a newer JDK, say). Fails if there is no such line.
   */
  static String rsaProviderLine(String log) {
    return log.lines()
        .map(line -> line.substring(Math.max(0, line.indexOf("RSA signatures: "))))
        .filter(
            line ->
                line.startsWith("RSA signatures: AmazonCorrettoCryptoProvider ")
                    || line.startsWith("RSA signatures: the JDK's provider"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no 'RSA signatures: ' line in the log"));
  }

  long pid() {
    return process.pid();
  }

  /**
   * Polls {@code base/health/ready} (waiting for the server, not for time) until it answers 200,
   * the process ends or {@code deadline} passes; returns the time from start to ready.
   */
  Duration awaitReady(URI base, Duration deadline) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(base.resolve("/health/ready"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long end = startedNanos + deadline.toNanos();
    while (System.nanoTime() < end && process.isAlive()) {
      try {
        if (client.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return elapsed();
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        name
            + (process.isAlive() ? " was not ready within " + deadline : " ended")
            + "; its log, "
            + log
            + ", ends with:\n"
            + tail(60));
  }

  /** The last {@code lines} lines of the server's log. */
  String tail(int lines) throws IOException {
    List<String> all = Files.readAllLines(log);
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  /** SIGTERM to the PID (the server's own shutdown), SIGKILL after the grace period. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
