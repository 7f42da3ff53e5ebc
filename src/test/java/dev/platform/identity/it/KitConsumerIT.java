package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 43: another team's Maven project on {@code dev.platform:identity-testkit} alone, with
 * docs/testing-with-identity.md's {@code <dependency>} block, as LibrariesConsumerIT does for the
 * libraries: the libraries' and the kit's jars and POMs installed into the build's local
 * repository, then the project's tests run by Maven (src/test/testkit-consumer, copied to
 * target/testkit-consumer). Its test uses only the documented annotations and the kit's own WAR,
 * from inside the kit's jar.
 */
class KitConsumerIT {
  static final Path SOURCE = Path.of("src/test/testkit-consumer");
  static final Path PROJECT = Path.of("target/testkit-consumer");
  static final Pattern DEPENDENCY_BLOCK =
      Pattern.compile("```xml\n(<dependency>\n.*?</dependency>\n)```", Pattern.DOTALL);

  /** Groups of the service's own dependencies that the kit must not bring. */
  static final List<String> SERVICE_ONLY =
      List.of(
          "org.glassfish.jersey",
          "org.eclipse.persistence",
          "org.flywaydb",
          "com.bucket4j",
          "org.postgresql",
          "io.micrometer",
          "gg.jte",
          "io.jsonwebtoken");

  static List<String> tree;
  static String firstRun;

  @BeforeAll
  static void runTheConsumersTests() throws IOException, InterruptedException {
    LibrariesConsumerIT.copy(SOURCE, PROJECT);
    Path pom = PROJECT.resolve("pom.xml");
    Files.writeString(
        pom,
        Files.readString(pom)
            .replace("<!-- docs/testing-with-identity.md's dependency -->", documentedDependency())
            .replace("SERVICE_VERSION", LibrariesConsumerIT.VERSION)
            .replace("JUNIT_VERSION", System.getProperty("identity.junit.version")));
    LibrariesConsumerIT.maven(
        PROJECT,
        "org.apache.maven.plugins:maven-install-plugin:3.1.3:install-file",
        "-Dfile=" + Path.of("target/identity-libraries.jar").toAbsolutePath(),
        "-DpomFile=" + Path.of("target/libraries/pom.xml").toAbsolutePath());
    LibrariesConsumerIT.maven(
        PROJECT,
        "org.apache.maven.plugins:maven-install-plugin:3.1.3:install-file",
        "-Dfile=" + Path.of("target/identity-testkit.jar").toAbsolutePath(),
        "-DpomFile=" + Path.of("target/testkit/pom.xml").toAbsolutePath());
    LibrariesConsumerIT.maven(PROJECT, "test", "dependency:tree", "-DoutputFile=tree.txt");
    tree = Files.readAllLines(PROJECT.resolve("tree.txt"));
    firstRun = Files.readString(PROJECT.resolve("maven.log"));
    // Again, as a team's next run: the class-data archive the first run's services wrote is used.
    LibrariesConsumerIT.maven(PROJECT, "surefire:test");
    System.out.println(
        "KitConsumerIT: first run: "
            + startFigures(firstRun)
            + "; next run: "
            + startFigures(Files.readString(PROJECT.resolve("maven.log"))));
  }

  @Test
  void whenTheConsumersTestsRunThenTheKitsServiceGaveThemTokens() throws IOException {
    Path report = PROJECT.resolve("target/surefire-reports/TEST-example.OrdersClientTest.xml");
    String xml = Files.readString(report);

    assertTrue(xml.contains("tests=\"3\""), xml);
    assertTrue(xml.contains("failures=\"0\"") && xml.contains("errors=\"0\""), xml);
    assertTrue(xml.contains("skipped=\"0\""), xml);
    assertTrue(
        firstRun.contains("from http://127.0.0.1:"), "the consumer's test printed no issuer");
  }

  @Test
  void whenTheConsumersDependenciesAreListedThenTheKitIsInTestScopeWithNoneOfTheService() {
    String listed = String.join("\n", tree);
    List<String> foreign =
        tree.stream()
            .filter(
                line ->
                    SERVICE_ONLY.stream()
                        .anyMatch(group -> LibrariesConsumerIT.inGroup(line, group)))
            .toList();

    assertEquals(List.of(), foreign, listed);
    assertTrue(
        listed.contains(
            "dev.platform:identity-testkit:jar:" + LibrariesConsumerIT.VERSION + ":test"),
        listed);
    assertTrue(
        listed.contains(
            "dev.platform:identity-libraries:jar:" + LibrariesConsumerIT.VERSION + ":test"),
        listed);
  }

  @Test
  void whenTheKitsJarIsOpenedThenItHoldsTheKitTheLauncherAndTheWarOnly() throws IOException {
    try (JarFile jar = new JarFile("target/identity-testkit.jar")) {
      List<String> foreign =
          Collections.list(jar.entries()).stream()
              .map(ZipEntry::getName)
              .filter(name -> name.startsWith("dev/platform/identity/"))
              .filter(name -> !name.startsWith("dev/platform/identity/testkit/"))
              .filter(name -> !name.startsWith("dev/platform/identity/launcher/"))
              .filter(name -> !name.equals("dev/platform/identity/"))
              .toList();

      assertEquals(List.of(), foreign);
      assertTrue(jar.getEntry("dev/platform/identity/testkit/identity.war") != null);
    }
  }

  @Test
  void whenTheWarAndTheLibrariesAreOpenedThenNoneHoldsTheKit() throws IOException {
    for (String archive : List.of("target/identity.war", "target/identity-libraries.jar")) {
      try (JarFile jar = new JarFile(archive)) {
        assertFalse(
            Collections.list(jar.entries()).stream()
                .anyMatch(entry -> entry.getName().contains("identity/testkit/")),
            archive);
      }
    }
  }

  /** The consumer's "kit start to first token" lines of one run. */
  static String startFigures(String log) {
    return log.lines()
        .filter(line -> line.contains("kit start to first token"))
        .map(line -> line.substring(line.indexOf("token") + 6))
        .toList()
        .toString();
  }

  /** docs/testing-with-identity.md's one {@code <dependency>} block, as a team pastes it. */
  static String documentedDependency() throws IOException {
    Matcher block =
        DEPENDENCY_BLOCK.matcher(Files.readString(Path.of("docs/testing-with-identity.md")));
    assertTrue(block.find(), "docs/testing-with-identity.md has no ```xml <dependency> block");
    String dependency = block.group(1);
    assertTrue(dependency.contains("<artifactId>identity-testkit</artifactId>"), dependency);
    assertTrue(dependency.contains("<scope>test</scope>"), dependency);
    assertFalse(block.find(), "docs/testing-with-identity.md has two <dependency> blocks");
    return dependency;
  }
}
