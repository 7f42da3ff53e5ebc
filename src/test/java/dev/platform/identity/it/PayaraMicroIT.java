package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The WAR, unchanged, on Payara Micro 6 (fetched by {@code -Pservers}) with the production example
 * of {@code conf/payara/}: its pre-boot commands, its post-boot commands (the PostgreSQL pool and
 * {@code jdbc/identity} pointing at a fresh database, the deployment with {@code
 * web-production.xml} as the alternate descriptor), the secrets as system properties, the database
 * rate-limit store, Hazelcast off, HTTP on loopback; started and stopped by its process.
 */
@EnabledIfSystemProperty(named = "identity.payara.jar", matches = ".+")
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class PayaraMicroIT {
  static final String ADMIN_ID = UUID.randomUUID().toString();
  static final String ADMIN_SECRET = "payara-smoke-admin-secret-0123456789abcdef";

  final Path jar = Path.of(System.getProperty("identity.payara.jar"));
  ProductionServer server;
  Path base;
  Http http;

  @BeforeEach
  void start() throws Exception {
    server = ProductionServer.prepare("Payara Micro", jar, "identity_payara");
    base = Files.createTempDirectory(Path.of("target"), "payara-base-").toAbsolutePath();
    Files.createDirectories(base.resolve("root"));
    Path runtime = Files.createDirectories(jar.resolveSibling("runtime")).toAbsolutePath();
    Files.copy(Path.of("conf/payara/pre-boot.asadmin"), base.resolve("pre-boot.asadmin"));
    Files.writeString(base.resolve("post-boot.asadmin"), postBoot());
    Files.writeString(base.resolve("web-production.xml"), webXml());
    Files.writeString(
        base.resolve("identity.properties"),
        "identity.kek="
            + ProductionServer.KEK
            + "\nidentity.pepper="
            + ProductionServer.PEPPER
            + "\nidentity.db.password=unused-with-trust-auth\n");
    http =
        server.start(
            List.of(
                ServerProcess.java(),
                "-Xmx512m",
                "-Djava.io.tmpdir=" + base,
                "-jar",
                jar.toString(),
                "--nohazelcast",
                "--disablephonehome",
                "--port",
                Integer.toString(server.port()),
                "--addlibs",
                jar.resolveSibling("postgresql.jar").toString(),
                "--systemproperties",
                base.resolve("identity.properties").toString(),
                "--prebootcommandfile",
                base.resolve("pre-boot.asadmin").toString(),
                "--postbootcommandfile",
                base.resolve("post-boot.asadmin").toString(),
                "--rootdir",
                base.resolve("root").toString(),
                "--unpackdir",
                runtime.toString()),
            base.resolve("console.log"),
            Duration.ofSeconds(180));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  /** conf/payara/post-boot-production.asadmin with this machine's database and files. */
  String postBoot() throws IOException {
    return ConfExample.read("conf/payara/post-boot-production.asadmin")
        .replace("serverName=db.internal:", "serverName=127.0.0.1:")
        .replace(
            "databaseName=identity:user=identity:",
            "databaseName=" + server.database().dataSource().getDatabaseName() + ":user=postgres:")
        .replace("/opt/identity/web-production.xml", base.resolve("web-production.xml").toString())
        .replace("/opt/identity/identity.war", Path.of("target/identity.war").toAbsolutePath() + "")
        .text();
  }

  /** conf/payara/web-production.xml with this machine's issuer and administrator. */
  String webXml() throws IOException {
    return ConfExample.read("conf/payara/web-production.xml")
        .replace("https://identity.example.com", "http://127.0.0.1:" + server.port())
        .replace(
            entry("identity/bootstrapClientId", ""), entry("identity/bootstrapClientId", ADMIN_ID))
        .replace(
            entry("identity/bootstrapClientSecret", ""),
            entry("identity/bootstrapClientSecret", ADMIN_SECRET))
        .replace(
            entry("identity/rateLimitStore", "memory"),
            entry("identity/rateLimitStore", "database"))
        .text();
  }

  static String entry(String name, String value) {
    return "<env-entry-name>"
        + name
        + "</env-entry-name>\n    <env-entry-type>java.lang.String</env-entry-type>\n"
        + "    <env-entry-value>"
        + value
        + "</env-entry-value>";
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenDeployedOnPayaraMicroThenTheSmokeSuitePasses() {
    long suite = System.nanoTime();
    // The service's readiness, not Payara's own MicroProfile Health (pre-boot.asadmin turns it
    // off).
    JsonNode health = Http.json(http.get("/health/ready"));
    assertEquals("UP", health.path("database").asText(), health.toString());
    new SmokeSuite(http, ADMIN_ID, ADMIN_SECRET).run();
    System.out.printf(
        "Payara Micro smoke suite: %d ms%n",
        Duration.ofNanos(System.nanoTime() - suite).toMillis());
  }
}
