package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
                            "WEB-INF/lib/(tomcat|catalina|h2|postgresql|mariadb|jakarta.servlet-api).*")
                        || name.contains("org/apache/catalina")
                        // Issue 42: MariaDB Connector/J is the server's (its lib/), never the
                        // WAR's.
                        || name.contains("org/mariadb/")
                        || name.contains("org/postgresql/")
                        || name.contains("/launcher/")
                        || name.startsWith("META-INF/context.xml"))
            .toList());
  }

  @Test
  void whenPackagedThenTheApplicationAndItsMigrationsAreThere() throws IOException {
    List<String> entries = entries();

    assertTrue(entries.contains("WEB-INF/web.xml"));
    assertTrue(entries.contains("WEB-INF/classes/META-INF/persistence.xml"));
    assertTrue(entries.contains("WEB-INF/classes/db/h2-postgresql/V1__service_accounts.sql"));
    assertTrue(entries.contains("WEB-INF/classes/dev/platform/identity/web/Startup.class"));
  }

  /**
   * Issue 41: the two files only WildFly reads (docs/deploying-wildfly.md): its RESTEasy,
   * Hibernate, Weld and Hibernate Validator kept out, and jdbc/identity bound to setup.cli's data
   * source, never to WildFly's default H2 ExampleDS.
   */
  @Test
  void whenPackagedThenWildFlysDescriptorsKeepItsSubsystemsOutAndMapTheDataSource()
      throws IOException {
    String structure = entry("WEB-INF/jboss-deployment-structure.xml");
    String web = entry("WEB-INF/jboss-web.xml");

    for (String subsystem : List.of("jaxrs", "jpa", "weld", "bean-validation")) {
      assertTrue(structure.contains("<subsystem name=\"" + subsystem + "\"/>"), subsystem);
    }
    assertTrue(web.contains("<res-ref-name>jdbc/identity</res-ref-name>"), web);
    assertTrue(web.contains("<jndi-name>java:jboss/datasources/identity</jndi-name>"), web);
    assertTrue(web.contains("<context-root>/</context-root>"), web);
  }

  static String entry(String name) throws IOException {
    try (ZipFile war = new ZipFile("target/identity.war")) {
      ZipEntry entry = war.getEntry(name);
      assertNotNull(entry, name);
      return new String(war.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
