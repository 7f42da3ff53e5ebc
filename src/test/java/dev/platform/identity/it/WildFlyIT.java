package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.db.FreshPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 41: docs/deploying-wildfly.md run as written with {@code sh}: the WildFly zip unpacked into
 * a folder of its own (the doc's {@code /opt/identity}), the secret files, the pgpass file named in
 * {@code standalone.conf}, the start, {@code conf/wildfly/setup.cli} on a fresh PostgreSQL database
 * owned by a new role with a password, the deploy, the stop. Only a WildFly whose command line
 * names this test's folder is ever signalled.
 */
@EnabledIfSystemProperty(named = "identity.wildfly.zip", matches = ".+")
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class WildFlyIT {
  static final Path ZIP = Path.of(System.getProperty("identity.wildfly.zip", "wildfly-dist-0.zip"));
  static final String VERSION =
      ZIP.getFileName().toString().replaceAll("^wildfly-dist-|\\.zip$", "");

  ReadmeSteps deploying;
  ReadmeSteps wildfly;
  Path folder;
  Path home;
  Path secrets;
  FreshPostgres database;
  String role;
  String password;
  int port;
  int management;
  int https;

  @BeforeEach
  void prepare() throws Exception {
    deploying =
        ReadmeSteps.in("docs/deploying-tomcat.md", "## Before any server", "## Tomcat 10.1 or 11");
    wildfly = ReadmeSteps.in("docs/deploying-wildfly.md", "## WildFly 39", null);
    folder = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "wildfly-");
    home = folder.resolve("wildfly-" + VERSION);
    secrets = folder.resolve("secrets");
    database = FreshPostgres.create("identity_wildfly");
    byte[] random = new byte[18];
    new SecureRandom().nextBytes(random);
    role = "identity_wildfly_" + HexFormat.of().formatHex(random, 0, 6);
    // Distinctive, so that the search can look for it; the test server trusts loopback, so
    // PostgreSQL does not check it.
    password = "db-" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    admin("create role " + role + " login password '" + password + "'");
    admin("alter database " + databaseName() + " owner to " + role);
    port = freePort();
    management = freePort();
    https = freePort();
  }

  @AfterEach
  void cleanUp() throws Exception {
    try {
      for (ProcessHandle left : wildflies()) {
        left.destroyForcibly();
        left.onExit().get(10, TimeUnit.SECONDS);
      }
    } finally {
      database.close();
      admin("drop role if exists " + role);
    }
  }

  @Test
  @Timeout(value = 420, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenInstalledAsTheDocSaysThenItServesWritesToPostgresLogsNoSecretAndStops()
      throws Exception {
    install();
    long starting = System.nanoTime();
    assertEquals(0, run("start", start()), tail("start"));
    assertEquals(0, run("setup", setup(setupCli("http://127.0.0.1:" + port))), tail("setup"));
    long ready = System.nanoTime();
    long pid = server().pid();
    String commandLine = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    assertTrue(commandLine.contains("-Djboss.home.dir=" + home), commandLine);
    ServerProcess.assertRunsOnTheChosenJava("WildFly", pid);

    Properties admin =
        ProductionServer.bootstrapAdministrator(secrets.resolve("bootstrap-admin.txt"));
    String adminId = admin.getProperty("client_id");
    String adminSecret = admin.getProperty("client_secret");
    Http http = new Http(new URL("http://127.0.0.1:" + port + "/"));
    new SmokeSuite(http, adminId, adminSecret).run();
    assertMetricsForAScraper(http, http.token(adminId, adminSecret));
    // setup.cli removed WildFly's HTTP invoker and its redirect to the management console.
    ErrorShapes.error(new RawHttp(http.uri("/")).send("GET", "/wildfly-services"), 404);
    ErrorShapes.error(new RawHttp(http.uri("/")).send("GET", "/WEB-INF/web.xml"), 404);
    // A request target without its leading / was Undertow's HTML 500 and a stack trace each.
    ErrorShapes.error(new RawHttp(http.uri("/")).send("GET", "%2Fadmin/v1/service-accounts"), 404);
    String location = http.get("/console").headers().firstValue("Location").orElse("");
    assertFalse(location.contains(":" + management), location);
    long tested = System.nanoTime();
    // Written to the PostgreSQL database of setup.cli, not to WildFly's ExampleDS: the
    // administrator, the suite's two accounts and the scraper, and the audit trail.
    assertEquals(1, count("select count(*) from service_account where client_id = ?", adminId));
    assertTrue(count("select count(*) from service_account", null) >= 4, "the accounts");
    assertTrue(count("select count(*) from audit_event", null) > 0, "the audit trail");

    assertEquals(0, run("stop", stop()), tail("stop"));
    long stopped = System.nanoTime();
    Optional<ProcessHandle> left = ProcessHandle.of(pid);
    if (left.isPresent()) {
      left.get().onExit().get(30, TimeUnit.SECONDS);
    }

    // WildFly logs no setting's value (standalone.xml has them): not the secret files' names.
    String log = Files.readString(home.resolve("standalone/log/server.log"));
    assertTrue(log.contains("Settings given by the server's global JNDI names"), "no INFO line");
    String signatures = ServerProcess.rsaProviderLine(log);
    assertTrue(signatures.startsWith("RSA signatures: AmazonCorrettoCryptoProvider"), signatures);
    assertFalse(log.contains(secrets.resolve("key-encryption-key").toString()), "a value logged");
    assertTrue(
        Files.readString(home.resolve("standalone/configuration/standalone.xml"))
            .contains(secrets.resolve("key-encryption-key").toString()),
        "the binding in standalone.xml");
    assertNoSecretIn(commandLine, adminSecret);
    System.out.printf(
        "WildFly %s by docs/deploying-wildfly.md: started, configured and deployed in %d ms,"
            + " suite %d ms, stopped in %d ms%n",
        VERSION, millis(starting, ready), millis(ready, tested), millis(tested, stopped));
  }

  /**
   * jboss-web.xml maps jdbc/identity to setup.cli's data source: without that data source, the
   * deploy fails naming it, instead of the service starting on WildFly's default H2 ExampleDS.
   */
  @Test
  @Timeout(value = 420, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenTheDataSourceIsMissingThenTheDeployFailsNamingItNotExampleDs() throws Exception {
    install();
    String setup = setupCli("http://127.0.0.1:" + port);
    String withoutDataSource =
        setup
            .lines()
            .filter(line -> !line.startsWith("data-source add"))
            .collect(Collectors.joining("\n", "", "\n"));
    assertEquals(0, run("start", start()), tail("start"));
    long deploying = System.nanoTime();
    assertEquals(1, run("setup", setup(withoutDataSource)), tail("setup"));
    long failed = System.nanoTime();

    assertTrue(
        tail("setup").contains("jboss.naming.context.java.jboss.datasources.identity"),
        tail("setup"));
    assertEquals(0, count("select count(*) from pg_tables where schemaname = 'public'", null));
    assertEquals(0, run("stop", stop()), tail("stop"));
    System.out.printf(
        "WildFly %s without the data source: the deploy failed after %d ms, naming it%n",
        VERSION, millis(deploying, failed));
  }

  /** Every step before the start, as the doc says, with this machine's folder and database. */
  void install() throws IOException, InterruptedException {
    String mvn = "mvn -B -q dependency:copy -Dartifact=org.wildfly:wildfly-dist:";
    ConfExample unpack =
        wildfly
            .block(mvn)
            .replace(mvn + VERSION + ":zip -DoutputDirectory=target/deploy\n", "") // -Pservers
            .replace("target/deploy/" + ZIP.getFileName(), ZIP.toAbsolutePath().toString())
            .replace("/opt/identity", folder.toString());
    assertEquals(0, run("unpack", unpack), tail("unpack"));
    assertEquals(
        0,
        run(
            "secrets",
            deploying.line("SECRETS/key-encryption-key").replace("SECRETS", secrets.toString())),
        tail("secrets"));
    ConfExample pgpass =
        wildfly
            .block("(umask 077; echo 'db.internal:5432:identity:identity:PASSWORD'")
            .replace(
                "db.internal:5432:identity:identity:PASSWORD",
                "127.0.0.1:5432:" + databaseName() + ":" + role + ":" + password)
            .replace("/opt/identity", folder.toString());
    assertEquals(0, run("pgpass", pgpass), tail("pgpass"));
  }

  /** The doc's start, on this test's folder and ports. */
  ConfExample start() {
    return wildfly
        .block("(umask 077; nohup /opt/identity/")
        .replace("/opt/identity", folder.toString())
        .replace("-Djboss.http.port=8080", "-Djboss.http.port=" + port)
        .replace("-Djboss.https.port=8443", "-Djboss.https.port=" + https)
        .replace("-Djboss.management.http.port=9990", "-Djboss.management.http.port=" + management);
  }

  /** The doc's wait, setup.cli (as {@code script}), the deploy and the service's readiness. */
  ConfExample setup(String script) throws IOException {
    Path file = folder.resolve("setup.cli");
    Files.writeString(file, script);
    return wildfly
        .block("for i in $(seq 120); do curl -sf http://127.0.0.1:9990/health/ready")
        .replace("/opt/identity", folder.toString())
        .replace("127.0.0.1:9990", "127.0.0.1:" + management)
        .replace("--file=conf/wildfly/setup.cli", "--file=" + file)
        .replace("http://127.0.0.1:8080/", "http://127.0.0.1:" + port + "/");
  }

  /** conf/wildfly/setup.cli with this machine's database, role, issuer and folder. */
  String setupCli(String issuer) throws IOException {
    return ConfExample.read("conf/wildfly/setup.cli")
        .replace(
            "jdbc:postgresql://db.internal:5432/identity?",
            "jdbc:postgresql://127.0.0.1:5432/" + databaseName() + "?")
        .replace("--user-name=identity ", "--user-name=" + role + " ")
        .replace("value=\"https://identity.example.com\"", "value=\"" + issuer + "\"")
        .replace("/opt/identity/secrets/", secrets + "/")
        .replace(
            "rateLimitStore:add(binding-type=simple, type=java.lang.String, value=\"memory\")",
            "rateLimitStore:add(binding-type=simple, type=java.lang.String, value=\"database\")")
        .text();
  }

  /** The doc's stop, on this test's folder and management port. */
  ConfExample stop() {
    return wildfly
        .block("/opt/identity/wildfly-" + VERSION + "/bin/jboss-cli.sh --connect")
        .replace("/opt/identity", folder.toString())
        .replace("127.0.0.1:9990", "127.0.0.1:" + management);
  }

  /** The running server's JVM: WildFly names it {@code [Standalone]} on its command line. */
  ProcessHandle server() {
    List<ProcessHandle> servers =
        wildflies().stream()
            .filter(process -> process.info().commandLine().orElse("").contains("[Standalone]"))
            .toList();
    assertEquals(1, servers.size(), servers.toString());
    return servers.get(0);
  }

  /**
   * Issue 20's /metrics on WildFly: refused without a token, read in the text format with a token
   * of an account holding identity:metrics.
   */
  static void assertMetricsForAScraper(Http http, String adminToken) {
    assertEquals(401, http.get("/metrics").statusCode());
    HttpResponse<String> created =
        http.admin(
            "POST",
            "/service-accounts",
            adminToken,
            "{\"name\":\"scraper\",\"organization_id\":\"root\",\"scopes\":[\"identity:metrics\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode scraper = Http.json(created);
    String bearer =
        http.token(scraper.get("client_id").asText(), scraper.get("client_secret").asText());
    HttpResponse<String> metrics =
        http.send(http.request("/metrics").header("Authorization", "Bearer " + bearer).build());
    assertEquals(200, metrics.statusCode(), metrics.body());
    assertTrue(metrics.body().contains("identity_token_requests_total"), metrics.body());
  }

  /**
   * Neither secret file's value, nor the database password, nor the administrator's secret is in
   * any file under the folder but secrets/ (standalone.xml and its history, the logs, the
   * deployments' content, the steps' output), nor in WildFly's command line.
   */
  void assertNoSecretIn(String commandLine, String adminSecret) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("the key-encryption key", secret("key-encryption-key"));
    values.put("the pepper", secret("secret-pepper"));
    values.put("the database password", password);
    values.put("the administrator's secret", adminSecret);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files = walk.filter(Files::isRegularFile).filter(f -> !f.startsWith(secrets)).toList();
    }
    List<String> found = new ArrayList<>();
    for (Path file : files) {
      String text = Files.readString(file, StandardCharsets.ISO_8859_1);
      values.forEach(
          (name, value) -> {
            if (text.contains(value)) {
              found.add(name + " in " + file);
            }
          });
    }
    values.forEach(
        (name, value) -> {
          if (commandLine.contains(value)) {
            found.add(name + " in WildFly's command line");
          }
        });
    assertEquals(List.of(), found);
    assertTrue(
        files.stream().anyMatch(f -> f.endsWith("standalone_xml_history/standalone.last.xml")));
    assertTrue(files.size() > 1000, files.size() + " files searched");
  }

  /** Runs a doc block with {@code sh} in the project folder; its output in {@code step}.out. */
  int run(String step, ConfExample block) throws IOException, InterruptedException {
    return block.run(
        step,
        folder,
        Map.of("JAVA_HOME", ServerProcess.javaHome().toString()),
        Duration.ofSeconds(240));
  }

  String tail(String step) {
    try {
      return Files.readString(folder.resolve(step + ".out"));
    } catch (IOException e) {
      return e.toString();
    }
  }

  String secret(String file) throws IOException {
    return Files.readString(secrets.resolve(file)).trim();
  }

  /** WildFly's JVMs of this test: their command line names its folder. */
  List<ProcessHandle> wildflies() {
    return ProcessHandle.allProcesses()
        .filter(process -> process.info().commandLine().orElse("").contains(home.toString()))
        .filter(ProcessHandle::isAlive)
        .toList();
  }

  String databaseName() {
    return database.dataSource().getDatabaseName();
  }

  /** One number from the test's database, with {@code parameter} as its one ? where not null. */
  long count(String sql, String parameter) throws SQLException {
    try (Connection connection = database.dataSource().getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      if (parameter != null) {
        statement.setString(1, parameter);
      }
      try (ResultSet result = statement.executeQuery()) {
        assertTrue(result.next(), sql);
        return result.getLong(1);
      }
    }
  }

  void admin(String sql) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(System.getProperty("identity.postgres.url"));
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static long millis(long from, long to) {
    return Duration.ofNanos(to - from).toMillis();
  }
}
