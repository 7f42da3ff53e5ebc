package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.db.FreshPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
  static final String KEK = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
  static final String PEPPER = "ZXhhbXBsZS1wZXBwZXItZm9yLXRlc3RzLW9ubHktMzJieXRlcw==";

  final Path home = Path.of(System.getProperty("identity.tomcat.home"));
  FreshPostgres database;
  Process tomcat;
  Path base;
  int port;
  Http http;

  @BeforeEach
  void start() throws Exception {
    database = FreshPostgres.create("identity_tomcat");
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    base = Files.createTempDirectory(Path.of("target"), "tomcat-base-");
    for (String dir : List.of("conf/Catalina/localhost", "webapps", "logs", "temp", "work")) {
      Files.createDirectories(base.resolve(dir));
    }
    Files.copy(home.resolve("conf/web.xml"), base.resolve("conf/web.xml"));
    Files.copy(home.resolve("conf/logging.properties"), base.resolve("conf/logging.properties"));
    Files.writeString(base.resolve("conf/server.xml"), serverXml());
    Files.writeString(base.resolve("conf/Catalina/localhost/ROOT.xml"), contextXml());
    Files.copy(Path.of("target/identity.war"), base.resolve("webapps/ROOT.war"));
    tomcat =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
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
                "-Didentity.kek=" + KEK,
                "-Didentity.pepper=" + PEPPER,
                "-Didentity.db.password=unused-with-trust-auth",
                "org.apache.catalina.startup.Bootstrap",
                "start")
            .redirectErrorStream(true)
            .redirectOutput(base.resolve("logs/console.log").toFile())
            .start();
    http = new Http(new URL("http://127.0.0.1:" + port + "/"));
    awaitReady();
  }

  @AfterEach
  void stop() throws Exception {
    if (tomcat != null) {
      tomcat.destroy();
      if (!tomcat.waitFor(30, TimeUnit.SECONDS)) {
        tomcat.destroyForcibly().waitFor();
      }
    }
    if (database != null) {
      database.close();
    }
  }

  String serverXml() {
    return "<Server port=\"-1\" shutdown=\"SHUTDOWN\">\n"
        + "  <Service name=\"Catalina\">\n"
        + "    <Connector port=\""
        + port
        + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"/>\n"
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
    String name = database.dataSource().getDatabaseName();
    return Files.readString(Path.of("conf/tomcat/context-production.xml"))
        .replace(
            "jdbc:postgresql://db.internal:5432/identity?",
            "jdbc:postgresql://127.0.0.1:5432/" + name + "?")
        .replace("username=\"identity\"", "username=\"postgres\"")
        .replace(
            "value=\"https://identity.example.com\"", "value=\"http://127.0.0.1:" + port + "\"")
        .replace(
            "name=\"identity/bootstrapClientId\" value=\"\"",
            "name=\"identity/bootstrapClientId\" value=\"" + ADMIN_ID + "\"")
        .replace(
            "name=\"identity/bootstrapClientSecret\" value=\"\"",
            "name=\"identity/bootstrapClientSecret\" value=\"" + ADMIN_SECRET + "\"")
        .replace(
            "name=\"identity/rateLimitStore\" value=\"memory\"",
            "name=\"identity/rateLimitStore\" value=\"database\"");
  }

  /** Polls readiness (waiting for the server, not for time) until a deadline. */
  void awaitReady() throws Exception {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
    while (Instant.now().isBefore(deadline) && tomcat.isAlive()) {
      try {
        HttpResponse<Void> ready =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (ready.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new AssertionError(
        "Tomcat did not become ready: " + Files.readString(base.resolve("logs/console.log")));
  }

  HttpResponse<String> token(String id, String secret, boolean basic) {
    HttpRequest.Builder request =
        http.request("/oauth/token").header("Content-Type", "application/x-www-form-urlencoded");
    String form = "grant_type=client_credentials";
    if (basic) {
      String pair = id + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
      request.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    } else {
      form +=
          "&client_id="
              + id
              + "&client_secret="
              + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    }
    return http.send(request.POST(HttpRequest.BodyPublishers.ofString(form)).build());
  }

  @Test
  void whenDeployedOnTheTomcatDistributionThenTheSmokeSuitePasses() {
    HttpResponse<String> basic = token(ADMIN_ID, ADMIN_SECRET, true);
    assertEquals(200, basic.statusCode(), basic.body());
    assertEquals(200, token(ADMIN_ID, ADMIN_SECRET, false).statusCode());
    String admin = Http.json(basic).get("access_token").asText();

    JsonNode keys = Http.json(http.get("/api/public-keys")).get("keys");
    assertEquals(1, keys.size());
    assertEquals(200, http.get("/api/public-keys/" + keys.get(0).get("kid").asText()).statusCode());

    String[] account = create(admin);
    Instant start = Instant.now();
    assertEquals(200, token(account[0], account[1], false).statusCode());
    for (int i = 0; i < 59; i++) {
      assertEquals(200, token(account[0], account[1], i % 2 == 0).statusCode());
    }
    HttpResponse<String> limited = token(account[0], account[1], false);
    int refills = 0;
    while (limited.statusCode() == 200 && refills < 120) {
      refills++;
      limited = token(account[0], account[1], false);
    }
    // Beyond the burst of 60 the bucket refills one token a second (README "Rate limits").
    assertTrue(
        refills <= Duration.between(start, Instant.now()).toSeconds() + 1, "refills " + refills);
    assertEquals(429, limited.statusCode(), limited.body());
    assertTrue(limited.headers().firstValue("Retry-After").isPresent());

    String[] other = create(admin);
    HttpResponse<String> deactivated =
        http.send(
            http.request("/admin/v1/service-accounts/" + other[0] + "/deactivate")
                .header("Authorization", "Bearer " + admin)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertEquals(200, deactivated.statusCode(), deactivated.body());
    HttpResponse<String> revoked = token(other[0], other[1], false);
    assertEquals(401, revoked.statusCode(), revoked.body());
    assertTrue(revoked.body().contains("revoked"), revoked.body());
  }

  /** A new account through the admin API: its client_id and secret. */
  String[] create(String admin) {
    HttpResponse<String> created =
        http.send(
            http.request("/admin/v1/service-accounts")
                .header("Authorization", "Bearer " + admin)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"smoke\",\"organization_id\":\"org-s\",\"scopes\":[\"catalog:*\"]}"))
                .build());
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new String[] {body.get("client_id").asText(), body.get("client_secret").asText()};
  }
}
