package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.FreshPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * docs/deploying-payara.md, "Payara Server 6", run as written with {@code sh}: the full Payara
 * Server zip (fetched by {@code -Pservers}) unpacked into a folder of this test's that plays {@code
 * /opt/identity}, a domain of its own made there with {@code asadmin}, configured once by {@code
 * conf/payara-server/setup.asadmin} (pool, JDBC resource, the settings as custom resources), the
 * WAR deployed, restarted, deployed again and stopped. Only the doc's folder, ports, database and
 * issuer are changed. Only a process whose command line names this test's folder is ever signalled.
 */
@EnabledIfSystemProperty(named = "identity.payara.server.zip", matches = ".+")
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class PayaraServerIT {
  static final Path ZIP =
      Path.of(System.getProperty("identity.payara.server.zip", "payara-0.zip")).toAbsolutePath();
  static final String VERSION = ZIP.getFileName().toString().replaceAll("^payara-|\\.zip$", "");

  /** Distinctive, to be searched for; PostgreSQL here trusts 127.0.0.1 and never asks for it. */
  static final String DB_PASSWORD = "payara-server-db-password-" + UUID.randomUUID();

  /** The ports {@code --portbase} gives, as offsets: Payara binds or reserves each of them. */
  static final int[] OFFSETS = {9, 37, 38, 39, 48, 49, 59, 66, 76, 80, 81, 86};

  /** How long one asadmin step may take; restart-domain took 107 s on a busy machine here. */
  static final Duration STEP = Duration.ofMinutes(5);

  ReadmeSteps server;
  Path folder;
  Path secrets;
  FreshPostgres database;
  int portBase;
  final List<Path> outputs = new ArrayList<>();

  @BeforeEach
  void prepare() throws Exception {
    server = ReadmeSteps.in("docs/deploying-payara.md", "## Payara Server 6", null);
    folder = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "payara-server-");
    secrets = folder.resolve("secrets");
    database = FreshPostgres.create("identity_payara_server");
    portBase = freePortBase();
  }

  /** Stops a domain that a failed test left running: the doc's stop, then its PID. */
  @AfterEach
  void cleanUp() throws Exception {
    try {
      if (!domains().isEmpty() && Files.exists(folder.resolve("payara6"))) {
        run("cleanup-stop", doc("cd /opt/identity && " + asadmin() + " stop-domain"));
      }
      for (ProcessHandle left : domains()) {
        left.destroy();
        try {
          left.onExit().get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          left.destroyForcibly();
          left.onExit().get(10, TimeUnit.SECONDS);
        }
      }
    } finally {
      database.close();
    }
  }

  @Test
  @Timeout(value = 1500, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenRunAsTheDocSaysThenItServesKeepsItsConfigAndDataAndWritesOutNoSecret() throws Exception {
    Phases phases = new Phases();
    install();
    phases.done("installed (unzip, files)");
    assertEquals(0, run("create", doc(createBlock())), output("create"));
    phases.done("domain created and started");
    assertEquals(0, run("setup", doc(setupBlock())), output("setup") + output("setup.out"));
    phases.done("setup.asadmin and restart-domain");
    assertEquals(0, run("deploy", doc(asadminLine("deploy --name"))), output("deploy"));
    phases.done("deployed and ready");

    Http http = new Http(new URL("http://127.0.0.1:" + httpPort() + "/"));
    assertEquals(
        issuer(), ProductionServer.metadataIssuer(http), "identity/issuer, a custom resource");
    Properties admin =
        ProductionServer.bootstrapAdministrator(secrets.resolve("bootstrap-admin.txt"));
    String adminId = admin.getProperty("client_id");
    String adminSecret = admin.getProperty("client_secret");
    new SmokeSuite(http, adminId, adminSecret).run();
    phases.done("smoke suite");
    String commandLine = commandLine(pid());
    ServerProcess.assertRunsOnTheChosenJava("Payara Server", pid());
    String signatures = ServerProcess.rsaProviderLine(Files.readString(log()));
    assertTrue(signatures.startsWith("RSA signatures: AmazonCorrettoCryptoProvider"), signatures);

    assertEquals(0, run("restart", doc(asadminLine("restart-domain"))), output("restart"));
    awaitReady();
    phases.done("restart-domain, ready");
    assertEquals(issuer(), ProductionServer.metadataIssuer(http), "the issuer kept in domain.xml");
    List<String> listening = listening(pid());
    assertTrue(listening.size() >= 4, "HTTP, admin, IIOP, JMX, Hazelcast: " + listening);
    assertEquals(
        List.of(),
        listening.stream()
            .filter(socket -> !socket.startsWith("127.0.0.1:") && !socket.startsWith("::1:"))
            .toList(),
        "sockets the domain listens on beyond 127.0.0.1");
    String token = http.token(adminId, adminSecret);
    HttpResponse<String> created =
        http.admin(
            "POST",
            "/service-accounts",
            token,
            "{\"name\":\"kept\",\"organization_id\":\"org-k\",\"scopes\":[\"catalog:*\"]}");
    assertEquals(201, created.statusCode(), created.body());
    String accountId = Http.json(created).get("client_id").asText();
    String accountSecret = Http.json(created).get("client_secret").asText();

    assertEquals(0, run("redeploy", redeployBlock()), output("redeploy"));
    awaitReady();
    phases.done("redeployed, ready");
    HttpResponse<String> kept = http.admin("GET", "/service-accounts/" + accountId, token, null);
    assertEquals(200, kept.statusCode(), "the account after the redeploy: " + kept.body());
    assertEquals(200, http.tokenResponse(accountId, accountSecret).statusCode());
    String given =
        Files.readAllLines(log(), StandardCharsets.ISO_8859_1).stream()
            .filter(line -> line.contains("Settings given by the server's global JNDI names: ["))
            .reduce((first, last) -> last)
            .orElse("no line naming the settings read from global names");
    assertTrue(given.contains("identity/issuer, identity/keyEncryptionKeyFile"), given);
    assertFalse(given.contains(issuer()), "a value in " + given);

    long pid = pid();
    assertEquals(0, run("stop", doc(asadminLine("stop-domain"))), output("stop"));
    phases.done("stop-domain");
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), output("stop"));
    assertNoSecretWrittenOut(adminSecret, commandLine);
    assertNoSecretWrittenOut(accountSecret, commandLine);
    phases.print();
  }

  /**
   * The doc's first block with the zip from {@code -Pservers} (not fetched again), the database's
   * line in db.pgpass, the secrets of "Before any server", and the doc's edits of setup.asadmin.
   */
  void install() throws IOException, InterruptedException {
    String dbName = database.dataSource().getDatabaseName();
    ConfExample unpack =
        doc("mvn -B -q dependency:copy -Dartifact=fish.payara.distributions:payara:")
            .replace(
                "mvn -B -q dependency:copy -Dartifact=fish.payara.distributions:payara:"
                    + VERSION
                    + ":zip -DoutputDirectory=target/deploy\n",
                "") // -Pservers did this
            .replace("target/deploy/" + ZIP.getFileName(), ZIP.toString())
            .replace(
                "db.internal:5432:identity:identity:PASSWORD",
                "127.0.0.1:5432:" + dbName + ":postgres:" + DB_PASSWORD);
    assertEquals(0, run("unpack", unpack), output("unpack"));
    ConfExample keys =
        ReadmeSteps.in("docs/deploying-tomcat.md", "## Before any server", "## Tomcat 10.1 or 11")
            .line("SECRETS/key-encryption-key")
            .replace("SECRETS", secrets.toString());
    assertEquals(0, run("secrets", keys), output("secrets"));
    Path setup = folder.resolve("setup.asadmin");
    Files.writeString(
        setup,
        ConfExample.of(setup.toString(), Files.readString(setup))
            .replace(
                "db.internal\\:5432/identity?user\\=identity&",
                "127.0.0.1\\:5432/" + dbName + "?user\\=postgres&")
            .replace("https\\://identity.example.com", issuer().replace(":", "\\:"))
            .replace("/opt/identity/", folder + "/")
            .text());
  }

  String createBlock() {
    return "cd /opt/identity && umask 077\npayara6/bin/asadmin --user admin --passwordfile"
        + " secrets/asadmin.pass create-domain";
  }

  String setupBlock() {
    return "cd /opt/identity && umask 077\n" + asadmin() + " multimode";
  }

  /** The doc's one-line block {@code cd /opt/identity && ASADMIN COMMAND...}. */
  String asadminLine(String command) {
    return "cd /opt/identity && " + asadmin() + " " + command;
  }

  static String asadmin() {
    return "payara6/bin/asadmin --host 127.0.0.1 --port 8048 --user admin --passwordfile"
        + " secrets/asadmin.pass";
  }

  /** The redeploy with this build's WAR, which plays the new release. */
  ConfExample redeployBlock() {
    return doc("cp target/identity.war /opt/identity/identity.war");
  }

  /** The doc's block starting with {@code firstLine}, with this test's folder and ports. */
  ConfExample doc(String firstLine) {
    ConfExample block = server.block(firstLine);
    String text = block.text();
    if (text.contains("--portbase 8000")) {
      block.replace("--portbase 8000", "--portbase " + portBase);
    }
    if (text.contains("--port 8048")) {
      block.replace("--port 8048", "--port " + (portBase + 48));
    }
    if (text.contains("http://127.0.0.1:8080")) {
      block.replace("http://127.0.0.1:8080", "http://127.0.0.1:" + httpPort());
    }
    return block.replace("/opt/identity", folder.toString());
  }

  int httpPort() {
    return portBase + 80;
  }

  String issuer() {
    return "http://127.0.0.1:" + httpPort();
  }

  /**
   * A {@code --portbase} whose every port is free now (on every address, as Payara binds some of
   * them before setup.asadmin moves them to 127.0.0.1).
   */
  static int freePortBase() {
    Random random = new Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      int base = 20000 + 100 * random.nextInt(400);
      if (IntStream.of(OFFSETS).allMatch(offset -> free(base + offset))) {
        return base;
      }
    }
    throw new AssertionError("no free --portbase found");
  }

  static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** {@code block} run by sh in the project's folder, as an operator runs it; output in a file. */
  int run(String step, ConfExample block) throws IOException, InterruptedException {
    outputs.add(folder.resolve(step + ".out"));
    String java = ServerProcess.javaHome().toString();
    return block.run(step, folder, Map.of("JAVA_HOME", java, "AS_JAVA", java), STEP);
  }

  String output(String step) throws IOException {
    Path file = folder.resolve(step.endsWith(".out") ? step : step + ".out");
    return Files.exists(file) ? step + ":\n" + Files.readString(file) : step + ": no output";
  }

  /** restart-domain and deploy return before every request is served: /health/ready decides. */
  void awaitReady() throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create(issuer() + "/health/ready"))
            .timeout(Duration.ofSeconds(5))
            .build();
    long end = System.nanoTime() + STEP.toNanos();
    int status = -1;
    while (System.nanoTime() < end) {
      try {
        status = client.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new AssertionError("not ready within " + STEP + " (last status " + status + ")");
  }

  Path domain() {
    return folder.resolve("domains/identity");
  }

  Path log() {
    return domain().resolve("logs/server.log");
  }

  long pid() throws IOException {
    return Long.parseLong(Files.readString(domain().resolve("config/pid")).trim());
  }

  static String commandLine(long pid) throws IOException {
    return Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.ISO_8859_1)
        .replace('\0', ' ');
  }

  /** The processes of this test's Payara: their command line names its folder. */
  List<ProcessHandle> domains() {
    return ProcessHandle.allProcesses()
        .filter(process -> process.info().commandLine().orElse("").contains(folder.toString()))
        .filter(ProcessHandle::isAlive)
        .toList();
  }

  /** Loopback addresses in /proc/net/tcp6's form: ::ffff:127.0.0.1 and ::1. */
  static final Map<String, String> LOOPBACK6 =
      Map.of(
          "0000000000000000FFFF00000100007F",
          "127.0.0.1",
          "00000000000000000000000001000000",
          "::1");

  /**
   * The TCP sockets {@code pid} listens on, as address:port (127.0.0.1 for IPv4 loopback, also when
   * mapped into IPv6; ::1; else the hex of /proc/net/tcp*), from its open sockets' inodes.
   */
  static List<String> listening(long pid) throws IOException {
    List<String> inodes = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    List<String> sockets = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> rows = Files.readAllLines(Path.of(table));
      for (String line : rows.subList(1, rows.size())) {
        String[] fields = line.trim().split("\\s+");
        if (fields[3].equals("0A") && inodes.contains(fields[9])) {
          String[] local = fields[1].split(":");
          String address =
              local[0].equals("0100007F")
                  ? "127.0.0.1"
                  : LOOPBACK6.getOrDefault(local[0], local[0]);
          sockets.add(address + ":" + Integer.parseInt(local[1], 16));
        }
      }
    }
    return sockets;
  }

  /**
   * No secret in any file of the domain (domain.xml and its backup, the keyfiles, logs, the
   * deployed WAR's folder) or of the steps' outputs, nor in the server's command line.
   */
  void assertNoSecretWrittenOut(String clientSecret, String commandLine) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("the key-encryption key", secret("key-encryption-key"));
    values.put("the pepper", secret("secret-pepper"));
    values.put("the database password", DB_PASSWORD);
    values.put("a client secret", clientSecret);
    values.put("the domain's administrator password", secret("asadmin.pass").split("=", 2)[1]);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(domain())) {
      files = walk.filter(Files::isRegularFile).collect(Collectors.toCollection(ArrayList::new));
    }
    files.addAll(outputs.stream().filter(Files::exists).toList());
    List<String> found = new ArrayList<>();
    for (Path file : files) {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      values.forEach((name, value) -> found.add(text.contains(value) ? name + " in " + file : ""));
    }
    values.forEach(
        (name, value) -> found.add(commandLine.contains(value) ? name + " in the cmdline" : ""));
    found.removeIf(String::isEmpty);
    assertEquals(List.of(), found, "secrets written out");
    assertTrue(files.contains(domain().resolve("config/domain.xml")), files.size() + " files");
    assertTrue(files.contains(log()), "server.log searched");
  }

  String secret(String name) throws IOException {
    return Files.readString(secrets.resolve(name)).trim();
  }

  /** The time each phase took, printed as it ends and together at the end (PayaraMicroIT's). */
  static final class Phases {
    private final Map<String, Long> millis = new LinkedHashMap<>();
    private long last = System.nanoTime();

    void done(String phase) {
      long now = System.nanoTime();
      millis.put(phase, Duration.ofNanos(now - last).toMillis());
      System.out.printf("Payara Server: %s in %d ms%n", phase, millis.get(phase));
      last = now;
    }

    void print() {
      System.out.printf(
          "Payara Server %s by the doc: %s%n",
          ZIP.getFileName(),
          millis.entrySet().stream()
              .map(e -> e.getKey() + " " + e.getValue() + " ms")
              .collect(Collectors.joining(", ")));
    }
  }
}
