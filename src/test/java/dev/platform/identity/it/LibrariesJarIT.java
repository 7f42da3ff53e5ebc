package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** The small jar for other services: verify and client, nothing else of the project. */
class LibrariesJarIT {
  @Test
  void whenPackagedThenTheJarHoldsOnlyVerifyAndClient() throws IOException {
    List<String> classes;
    try (ZipFile jar = new ZipFile("target/identity-libraries.jar")) {
      classes = jar.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class")).toList();
    }

    assertTrue(classes.contains("dev/platform/identity/verify/BearerVerifier.class"));
    assertTrue(classes.contains("dev/platform/identity/verify/RemotePublicKeys.class"));
    assertTrue(classes.contains("dev/platform/identity/client/TokenClient.class"));
    assertEquals(
        List.of(),
        classes.stream()
            .filter(
                n ->
                    !n.startsWith("dev/platform/identity/verify/")
                        && !n.startsWith("dev/platform/identity/client/"))
            .toList());
  }
}
