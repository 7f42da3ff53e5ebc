package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: another team's Maven project on {@code dev.platform:identity-libraries} alone, with
 * docs/libraries.md's {@code <dependency>} block. CI runs {@code mvn verify}, not {@code install},
 * so the test first installs the libraries' jar and POM into the build's own local repository, with
 * Maven; the project is then built by Maven from there (src/test/libraries-consumer, copied to
 * target/libraries-consumer).
 */
class LibrariesConsumerIT {
  static final Path SOURCE = Path.of("src/test/libraries-consumer");
  static final Path PROJECT = Path.of("target/libraries-consumer");
  static final String VERSION = System.getProperty("identity.version");
  static final Duration MAVEN_DEADLINE = Duration.ofMinutes(5);
  static final Duration JAVA_DEADLINE = Duration.ofMinutes(1);
  static final Pattern DEPENDENCY_BLOCK =
      Pattern.compile("```xml\n(<dependency>\n.*?</dependency>\n)```", Pattern.DOTALL);

  /** The groups of the service's own dependencies, none of which a consumer may receive. */
  static final List<String> SERVICE_ONLY =
      List.of(
          "org.glassfish.jersey",
          "org.eclipse.persistence",
          "org.flywaydb",
          "com.bucket4j",
          "org.apache.tomcat",
          "com.h2database",
          "org.postgresql",
          "io.micrometer",
          "gg.jte",
          "io.jsonwebtoken",
          "jakarta.servlet",
          "jakarta.ws.rs",
          "software.amazon.cryptools");

  static String classpath;
  static List<String> tree;

  @TempDir Path data;

  @BeforeAll
  static void buildTheConsumer() throws IOException, InterruptedException {
    copy(SOURCE, PROJECT);
    Path pom = PROJECT.resolve("pom.xml");
    Files.writeString(
        pom,
        Files.readString(pom)
            .replace("<!-- docs/libraries.md's dependency -->", documentedDependency())
            .replace("SERVICE_VERSION", VERSION));
    maven(
        "org.apache.maven.plugins:maven-install-plugin:3.1.3:install-file",
        "-Dfile=" + Path.of("target/identity-libraries.jar").toAbsolutePath(),
        "-DpomFile=" + Path.of("target/libraries/pom.xml").toAbsolutePath(),
        "-Dsources=" + Path.of("target/identity-libraries-sources.jar").toAbsolutePath());
    maven(
        "compile",
        "dependency:build-classpath",
        "-Dmdep.outputFile=classpath.txt",
        "dependency:tree",
        "-DoutputFile=tree.txt");
    classpath = "target/classes:" + Files.readString(PROJECT.resolve("classpath.txt")).strip();
    tree = Files.readAllLines(PROJECT.resolve("tree.txt"));
  }

  /**
   * The launcher listens on a free port; its bootstrap administrator gets a token with {@code
   * TokenClient}, and {@code BearerVerifier} verifies it with the keys {@code RemotePublicKeys}
   * fetches.
   */
  @Test
  void whenTheConsumerGetsATokenThenItsVerifierAcceptsIt() throws Exception {
    int port = LauncherIT.freePort();
    String issuer = "http://127.0.0.1:" + port;
    try (LauncherIT.Launched launched = new LauncherIT.Launched(port, "--data", data.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher id = LauncherIT.CLIENT_ID.matcher(launched.output());
      Matcher secret = LauncherIT.SECRET.matcher(launched.output());
      assertTrue(id.find() && secret.find(), launched.output());

      String token =
          java(
                  Map.of(
                      "IDENTITY_CLIENT_ID", id.group(1), "IDENTITY_CLIENT_SECRET", secret.group(1)),
                  "",
                  "example.TokenUser",
                  issuer)
              .strip();
      String verified = java(Map.of(), token, "example.VerifierUser", issuer, "identity:admin");

      assertTrue(token.matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+"), token);
      assertEquals(
          "verified client_id=" + id.group(1) + " scopes=[identity:admin]", verified.strip());
    }
  }

  @Test
  void whenTheConsumersDependenciesAreListedThenNoneOfTheServiceIsAmongThem() {
    String listed = String.join("\n", tree);
    List<String> foreign =
        tree.stream()
            .filter(line -> SERVICE_ONLY.stream().anyMatch(group -> inGroup(line, group)))
            .toList();

    assertEquals(List.of(), foreign, listed);
    assertTrue(listed.contains("dev.platform:identity-libraries:jar:" + VERSION + ":compile"));
    assertTrue(listed.contains("com.fasterxml.jackson.core:jackson-databind:jar:"), listed);
    assertTrue(listed.contains("com.github.ben-manes.caffeine:caffeine:jar:"), listed);
  }

  /** docs/libraries.md's one {@code <dependency>} block, as a team pastes it; README.md's too. */
  static String documentedDependency() throws IOException {
    Matcher block = DEPENDENCY_BLOCK.matcher(Files.readString(Path.of("docs/libraries.md")));
    assertTrue(block.find(), "docs/libraries.md has no ```xml <dependency> block");
    String fenced = block.group();
    String dependency = block.group(1);
    assertTrue(dependency.contains("<artifactId>identity-libraries</artifactId>"), dependency);
    assertFalse(block.find(), "docs/libraries.md has two <dependency> blocks");
    assertTrue(
        Files.readString(Path.of("README.md")).contains(fenced),
        "README.md's <dependency> block is not docs/libraries.md's");
    return dependency;
  }

  /** Whether a line of {@code dependency:tree} names an artifact of {@code group} or below it. */
  static boolean inGroup(String line, String group) {
    String coordinates = line.replaceFirst("^[|+\\\\\\- ]*", "");
    String artifactGroup = coordinates.substring(0, Math.max(0, coordinates.indexOf(':')));
    return artifactGroup.equals(group) || artifactGroup.startsWith(group + ".");
  }

  /**
   * Runs Maven in the consumer project with the build's local repository and offline setting, its
   * output in a log that a failure shows.
   */
  static void maven(String... arguments) throws IOException, InterruptedException {
    maven(PROJECT, arguments);
  }

  /** As {@link #maven(String...)}, in {@code project} (KitConsumerIT's). */
  static void maven(Path project, String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(mvn(), "-B", "-q"));
    command.add("-Dmaven.repo.local=" + System.getProperty("identity.maven.repository"));
    if ("offline:true".equals(System.getProperty("identity.maven.offline"))) {
      command.add("-o");
    }
    command.addAll(Arrays.asList(arguments));
    Path log = project.resolve("maven.log");
    Process maven =
        new ProcessBuilder(command)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean ended = maven.waitFor(MAVEN_DEADLINE.toSeconds(), TimeUnit.SECONDS);
    if (!ended) {
      maven.destroyForcibly().waitFor();
    }
    assertTrue(
        ended && maven.exitValue() == 0,
        String.join(" ", command)
            + (ended ? " failed" : " did not end within " + MAVEN_DEADLINE)
            + ":\n"
            + Files.readString(log));
  }

  /** The Maven that runs this build ({@code maven.home}), else {@code mvn} on the PATH. */
  static String mvn() {
    String home = System.getProperty("maven.home", "");
    Path mvn = Path.of(home, "bin", "mvn");
    return !home.isEmpty() && Files.isExecutable(mvn) ? mvn.toString() : "mvn";
  }

  /** Runs a class of the consumer on its Maven classpath and returns what it printed. */
  static String java(Map<String, String> environment, String input, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(ServerProcess.java(), "-cp", classpath));
    command.addAll(Arrays.asList(arguments));
    Path log = PROJECT.resolve(arguments[0] + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(PROJECT.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    Process java = builder.start();
    try (OutputStream stdin = java.getOutputStream()) {
      stdin.write(input.getBytes(StandardCharsets.US_ASCII));
    }
    boolean ended = java.waitFor(JAVA_DEADLINE.toSeconds(), TimeUnit.SECONDS);
    if (!ended) {
      java.destroyForcibly().waitFor();
    }
    String output = Files.readString(log);
    assertTrue(ended && java.exitValue() == 0, arguments[0] + " failed:\n" + output);
    return output;
  }

  /** {@code from} copied to {@code to}, whatever {@code to} held before removed. */
  static void copy(Path from, Path to) throws IOException {
    if (Files.exists(to)) {
      try (Stream<Path> old = Files.walk(to)) {
        for (Path file : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }
}
