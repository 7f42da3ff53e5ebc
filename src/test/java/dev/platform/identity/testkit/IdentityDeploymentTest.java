package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdentityDeploymentTest {
  @TempDir Path folder;

  /**
   * Arquillian's embedded Tomcat exports the deployed WAR to {@code tomcatHome/webapps} and unpacks
   * it there with the user's umask (0644 files under target/ or a 0755 folder in /tmp): its {@code
   * META-INF/context.xml} held the bootstrap administrator's secret, the key-encryption key and the
   * pepper, readable by every user of the machine while the tests ran, and the service answers
   * every local user on loopback. The file names the service's own file forms of those secrets
   * instead, owner-only files in the deployment's folder.
   */
  @Test
  void whenTheWarIsWrittenThenItsContextFileHoldsNoSecret() throws Exception {
    Path kitWar = folder.resolve("kit.war");
    try (OutputStream out = Files.newOutputStream(kitWar);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("WEB-INF/web.xml"));
      zip.write("<web-app/>".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    String before = System.getProperty(ServiceProcess.WAR_PROPERTY);
    System.setProperty(ServiceProcess.WAR_PROPERTY, kitWar.toString());
    String context;
    try {
      IdentityDeployment deployment = IdentityDeployment.at("http://127.0.0.1:18180");
      try (FileSystem zip = FileSystems.newFileSystem(deployment.war().toPath(), Map.of())) {
        context = Files.readString(zip.getPath("/META-INF/context.xml"));
      }
    } finally {
      if (before == null) {
        System.clearProperty(ServiceProcess.WAR_PROPERTY);
      } else {
        System.setProperty(ServiceProcess.WAR_PROPERTY, before);
      }
    }
    for (String entry :
        List.of(
            "identity/keyEncryptionKey",
            "identity/secretPepper",
            "identity/bootstrapClientSecret")) {
      assertFalse(context.contains("\"" + entry + "\""), entry + " in\n" + context);
      Matcher value =
          Pattern.compile(Pattern.quote(entry + "File\" value=\"") + "([^\"]*)\"").matcher(context);
      assertTrue(value.find(), entry + "File in\n" + context);
      Path file = Path.of(value.group(1));
      assertTrue(file.isAbsolute(), value.group(1));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      String secret = Files.readString(file);
      assertTrue(secret.length() >= 32, entry);
      assertFalse(context.contains(secret), entry);
    }
    assertTrue(context.contains("value=\"http://127.0.0.1:18180\""), context);
  }
}
