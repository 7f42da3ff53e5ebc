package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The WAR that ops deploy: the application only, no server, no JDBC driver (the server's pool has
 * its own), no launcher, no test data.
 */
class WarContentsIT {
  static List<String> entries() throws IOException {
    try (ZipFile war = new ZipFile("target/identity.war")) {
      return war.stream().map(ZipEntry::getName).toList();
    }
  }

  @Test
  void whenPackagedThenNoTomcatNoJdbcDriverAndNoLauncher() throws IOException {
    List<String> entries = entries();

    assertEquals(
        List.of(),
        entries.stream()
            .filter(
                name ->
                    name.matches(
                            "WEB-INF/lib/(tomcat|catalina|h2|postgresql|jakarta.servlet-api).*")
                        || name.contains("org/apache/catalina")
                        || name.contains("/launcher/")
                        || name.startsWith("META-INF/context.xml"))
            .toList());
  }

  @Test
  void whenPackagedThenTheApplicationAndItsMigrationsAreThere() throws IOException {
    List<String> entries = entries();

    assertTrue(entries.contains("WEB-INF/web.xml"));
    assertTrue(entries.contains("WEB-INF/classes/META-INF/persistence.xml"));
    assertTrue(entries.contains("WEB-INF/classes/db/migration/V1__service_accounts.sql"));
    assertTrue(entries.contains("WEB-INF/classes/dev/platform/identity/web/Startup.class"));
  }
}
