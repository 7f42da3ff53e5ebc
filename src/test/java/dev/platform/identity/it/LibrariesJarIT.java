package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** The small jar for other services: verify, client and jose, nothing else of the project. */
class LibrariesJarIT {
  static final Path JAR = Path.of("target/identity-libraries.jar");
  static final Path POM = Path.of("target/libraries/pom.xml");
  static final String POM_IN_JAR = "META-INF/maven/dev.platform/identity-libraries/pom.xml";

  @Test
  void whenPackagedThenTheJarHoldsOnlyVerifyClientAndJose() throws IOException {
    List<String> classes = entries(JAR).stream().filter(n -> n.endsWith(".class")).toList();

    assertTrue(classes.contains("dev/platform/identity/verify/BearerVerifier.class"));
    assertTrue(classes.contains("dev/platform/identity/verify/RemotePublicKeys.class"));
    assertTrue(classes.contains("dev/platform/identity/client/TokenClient.class"));
    assertTrue(classes.contains("dev/platform/identity/jose/CompactJws.class"));
    assertEquals(
        List.of(),
        classes.stream()
            .filter(
                n ->
                    !n.startsWith("dev/platform/identity/verify/")
                        && !n.startsWith("dev/platform/identity/client/")
                        && !n.startsWith("dev/platform/identity/jose/"))
            .toList());
  }

  /** Issue 27: modular applications {@code requires dev.platform.identity.libraries}. */
  @Test
  void whenAModularApplicationFindsTheJarThenItIsTheModuleOfTheLibraries() throws IOException {
    try (JarFile jar = new JarFile(JAR.toFile())) {
      assertEquals(
          "dev.platform.identity.libraries",
          jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
    }
    ModuleDescriptor module =
        ModuleFinder.of(JAR).findAll().stream()
            .map(ModuleReference::descriptor)
            .findFirst()
            .orElseThrow();

    assertEquals("dev.platform.identity.libraries", module.name());
    assertTrue(module.isAutomatic());
    assertTrue(module.packages().contains("dev.platform.identity.verify"), module.toString());
    assertTrue(module.packages().contains("dev.platform.identity.client"), module.toString());
    assertTrue(module.packages().contains("dev.platform.identity.jose"), module.toString());
  }

  /**
   * Issue 27: the libraries' own POM, its versions filled in from the service's, inside the jar as
   * Maven puts it there; and their sources beside it.
   */
  @Test
  void whenPackagedThenThePomIsTheLibrariesOwnWithTheServicesVersion() throws IOException {
    String pom = Files.readString(POM);
    String inJar;
    try (ZipFile jar = new ZipFile(JAR.toFile())) {
      inJar =
          new String(
              jar.getInputStream(jar.getEntry(POM_IN_JAR)).readAllBytes(), StandardCharsets.UTF_8);
    }

    assertEquals(pom, inJar);
    assertTrue(pom.contains("<artifactId>identity-libraries</artifactId>"), pom);
    assertTrue(
        pom.contains("<version>" + System.getProperty("identity.version") + "</version>"), pom);
    assertFalse(pom.contains("${"), "every version filled in: " + pom);
    assertFalse(pom.contains("io.jsonwebtoken"), pom);
    assertTrue(
        entries(Path.of("target/identity-libraries-sources.jar"))
            .contains("dev/platform/identity/verify/BearerVerifier.java"));
  }

  static List<String> entries(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(ZipEntry::getName).toList();
    }
  }
}
