package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * The WAR, unchanged, on the real Tomcat 10.1 distribution (unpacked by {@code -Pservers}) with the
 * production example of {@code conf/tomcat/} pointing at a fresh PostgreSQL database, the database
 * rate-limit store, a loopback connector and no shutdown port; started and stopped by its process.
 */
@EnabledIfSystemProperty(named = "identity.tomcat.home", matches = ".+")
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class TomcatDistributionIT {
  static final String ADMIN_ID = UUID.randomUUID().toString();
  static final String ADMIN_SECRET = "tomcat-smoke-admin-secret-0123456789abcdef";

  final Path home = Path.of(System.getProperty("identity.tomcat.home"));
  ProductionServer server;
  Path base;
  Http http;

  @BeforeEach
  void start() throws Exception {
    server = ProductionServer.prepare("Tomcat", home, "identity_tomcat");
    base = Files.createTempDirectory(Path.of("target"), "tomcat-base-");
    for (String dir : List.of("conf/Catalina/localhost", "webapps", "logs", "temp", "work")) {
      Files.createDirectories(base.resolve(dir));
    }
    Files.copy(home.resolve("conf/web.xml"), base.resolve("conf/web.xml"));
    Files.copy(home.resolve("conf/logging.properties"), base.resolve("conf/logging.properties"));
    Files.writeString(base.resolve("conf/server.xml"), serverXml());
    Files.writeString(base.resolve("conf/Catalina/localhost/ROOT.xml"), contextXml());
    Files.copy(Path.of("target/identity.war"), base.resolve("webapps/ROOT.war"));
    http =
        server.start(
            List.of(
                ServerProcess.java(),
                "-Xmx256m",
                "-cp",
                home.resolve("bin/bootstrap.jar") + ":" + home.resolve("bin/tomcat-juli.jar"),
                "-Dcatalina.home=" + home.toAbsolutePath(),
                "-Dcatalina.base=" + base.toAbsolutePath(),
                "-Djava.io.tmpdir=" + base.resolve("temp").toAbsolutePath(),
                "-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager",
                "-Djava.util.logging.config.file=" + base.resolve("conf/logging.properties"),
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED",
                "-Didentity.kek=" + ProductionServer.KEK,
                "-Didentity.pepper=" + ProductionServer.PEPPER,
                "-Didentity.db.password=unused-with-trust-auth",
                "org.apache.catalina.startup.Bootstrap",
                "start"),
            base.resolve("logs/console.log"),
            Duration.ofSeconds(120));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  String serverXml() {
    return "<Server port=\"-1\" shutdown=\"SHUTDOWN\">\n"
        + "  <Service name=\"Catalina\">\n"
        + "    <Connector port=\""
        + server.port()
        + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\""
        + " connectionTimeout=\"5000\" keepAliveTimeout=\"20000\" maxSwallowSize=\"0\"/>\n"
        + "    <Engine name=\"Catalina\" defaultHost=\"localhost\">\n"
        + "      <Host name=\"localhost\" appBase=\"webapps\" unpackWARs=\"true\" autoDeploy=\"false\">\n"
        + "        <Valve className=\"org.apache.catalina.valves.ErrorReportValve\""
        + " showReport=\"false\" showServerInfo=\"false\"/>\n"
        + "      </Host>\n"
        + "    </Engine>\n"
        + "  </Service>\n"
        + "</Server>\n";
  }

  /** conf/tomcat/context-production.xml with this machine's database, issuer and admin. */
  String contextXml() throws IOException {
    String name = server.database().dataSource().getDatabaseName();
    return ConfExample.read("conf/tomcat/context-production.xml")
        .replace(
            "jdbc:postgresql://db.internal:5432/identity?",
            "jdbc:postgresql://127.0.0.1:5432/" + name + "?")
        .replace("username=\"identity\"", "username=\"postgres\"")
        .replace(
            "value=\"https://identity.example.com\"",
            "value=\"http://127.0.0.1:" + server.port() + "\"")
        .replace(
            "name=\"identity/bootstrapClientId\" value=\"\"",
            "name=\"identity/bootstrapClientId\" value=\"" + ADMIN_ID + "\"")
        .replace(
            "name=\"identity/bootstrapClientSecret\" value=\"\"",
            "name=\"identity/bootstrapClientSecret\" value=\"" + ADMIN_SECRET + "\"")
        .replace(
            "name=\"identity/rateLimitStore\" value=\"memory\"",
            "name=\"identity/rateLimitStore\" value=\"database\"")
        .text();
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenDeployedOnTheTomcatDistributionThenTheSmokeSuitePasses() {
    long suite = System.nanoTime();
    new SmokeSuite(http, ADMIN_ID, ADMIN_SECRET).run();
    // Tomcat refuses TRACE in its connector, yet still runs the WAR's error page for it.
    RawHttp.Answer trace = new RawHttp(http.uri("/")).send("TRACE", "/oauth/token");
    ErrorShapes.oauth(trace, 405);
    assertEquals("POST", trace.header("Allow"), trace.toString());
    System.out.printf(
        "Tomcat smoke suite: %d ms%n", Duration.ofNanos(System.nanoTime() - suite).toMillis());
  }
}
