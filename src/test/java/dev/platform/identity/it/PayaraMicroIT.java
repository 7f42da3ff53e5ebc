package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.hsm.SoftHsm;
import dev.platform.identity.tls.TestPki;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The WAR, unchanged, on Payara Micro 6 (fetched by {@code -Pservers}) as docs/deploying-tomcat.md
 * says, with the files of {@code conf/payara/}: a folder that plays {@code /opt/identity} holds the
 * pre-boot commands, the post-boot commands (the PostgreSQL pool, its password in an owner-only
 * passfile, pointing at a fresh database; the deployment with {@code web-production.xml}), the
 * secrets as owner-only files, {@code await-ready.sh}; Payara's instance in {@code payara/}, its
 * log in {@code logs/}. Started, stopped and started again by its process.
 */
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
@ParameterizedClass(name = "Payara Micro {0}", allowZeroInvocations = true)
@MethodSource("jars")
class PayaraMicroIT {
  /** Distinctive, to be searched for; PostgreSQL here trusts 127.0.0.1 and never asks for it. */
  static final String DB_PASSWORD = "payara-db-password-" + UUID.randomUUID();

  /**
   * How long a start may take (await-ready.sh's SECONDS too): 3 minutes, or {@code
   * -Didentity.payara.start=PT5M} on a machine whose load makes Payara deploy slower than that.
   */
  static final Duration START = Duration.parse(System.getProperty("identity.payara.start", "PT3M"));

  final Path jar;
  final String version;
  ProductionServer server;
  Path base;
  Path secrets;

  PayaraMicroIT(Path jar) throws IOException {
    this.jar = jar;
    this.version = version(jar);
  }

  /**
   * The jars {@code -Pservers} fetched: {@code identity.payara.jar} (6) and, where set, {@code
   * identity.payara7.jar} (7 needs Java 21, so only the Java 25 run sets it); none without
   * -Pservers.
   */
  static Stream<Path> jars() {
    return Stream.of("identity.payara.jar", "identity.payara7.jar")
        .map(name -> System.getProperty(name, ""))
        .filter(jar -> !jar.isBlank())
        .map(Path::of);
  }

  /** Payara Micro's version, from the boot module's Maven properties inside the jar. */
  static String version(Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      Properties pom = new Properties();
      pom.load(
          file.getInputStream(
              file.getEntry(
                  "META-INF/maven/fish.payara.server.internal.extras/payara-micro-boot/"
                      + "pom.properties")));
      return pom.getProperty("version");
    }
  }

  @BeforeEach
  void prepare() throws Exception {
    server = ProductionServer.prepare("Payara Micro " + version, jar, "identity_payara");
    base = Files.createTempDirectory(Path.of("target"), "payara-base-").toAbsolutePath();
    // The doc's "cd /opt/identity &&": Payara's directory config source looks for secrets/ in the
    // working directory first, which is where the secrets are (issue 36).
    server.runningIn(base);
    secrets = base.resolve("secrets");
    Files.createDirectories(
        secrets,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.createDirectories(base.resolve("logs"));
    Files.createDirectories(base.resolve("tmp"));
    Files.createDirectories(
        base.resolve("mpconfig"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.writeString(
        base.resolve("pre-boot.asadmin"),
        ConfExample.read("conf/payara/pre-boot.asadmin")
            .replace(
                "--directory=/opt/identity/mpconfig", "--directory=" + base.resolve("mpconfig"))
            .text());
    Files.copy(Path.of("conf/payara/await-ready.sh"), base.resolve("await-ready.sh"));
    Files.writeString(
        base.resolve("logging.properties"),
        ConfExample.read("conf/payara/logging.properties")
            .replace("/opt/identity/logs/audit.log", log("audit.log").toString())
            .text());
    Files.writeString(base.resolve("post-boot-production.asadmin"), postBoot());
    Files.writeString(base.resolve("web-production.xml"), webXml(issuer()));
    ownerOnly(secrets.resolve("key-encryption-key"), ProductionServer.KEK + "\n");
    ownerOnly(secrets.resolve("secret-pepper"), ProductionServer.PEPPER + "\n");
    ownerOnly(
        secrets.resolve("db.pgpass"),
        "127.0.0.1:5432:" + databaseName() + ":postgres:" + DB_PASSWORD + "\n");
  }

  @AfterEach
  void close() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  /**
   * README's start: no --rootdir, so the instance lives in the unpack folder, written anew by each
   * start; -Djava.io.tmpdir only keeps Payara's temporary files in this folder too. Its output is
   * appended to logs/server.log (the shell's {@code >>} in README).
   */
  List<String> command() {
    return List.of(
        ServerProcess.java(),
        "-Xmx512m",
        "-Djava.io.tmpdir=" + base.resolve("tmp"),
        "-Dorg.postgresql.pgpassfile=" + secrets.resolve("db.pgpass"),
        "-jar",
        jar.toString(),
        "--nohazelcast",
        "--disablephonehome",
        "--port",
        Integer.toString(server.port()),
        "--addlibs",
        jar.resolveSibling("postgresql.jar").toString(),
        "--prebootcommandfile",
        base.resolve("pre-boot.asadmin").toString(),
        "--postbootcommandfile",
        base.resolve("post-boot-production.asadmin").toString(),
        "--unpackdir",
        base.resolve("payara").toString(),
        "--logproperties",
        base.resolve("logging.properties").toString());
  }

  /** A file in logs/; README's start appends Payara's output to logs/server.log. */
  Path log(String name) {
    return base.resolve("logs").resolve(name);
  }

  String databaseName() {
    return server.database().dataSource().getDatabaseName();
  }

  String issuer() {
    return "http://127.0.0.1:" + server.port();
  }

  /** conf/payara/post-boot-production.asadmin with this machine's database and files. */
  String postBoot() throws IOException {
    return ConfExample.read("conf/payara/post-boot-production.asadmin")
        .replace(
            "db.internal\\:5432/identity?user\\=identity&",
            "127.0.0.1\\:5432/" + databaseName() + "?user\\=postgres&")
        .replace("/opt/identity/web-production.xml", base.resolve("web-production.xml").toString())
        .replace("/opt/identity/identity.war", Path.of("target/identity.war").toAbsolutePath() + "")
        .text();
  }

  /** conf/payara/web-production.xml with this machine's issuer and folder. */
  String webXml(String issuer) throws IOException {
    return ConfExample.read("conf/payara/web-production.xml")
        .replace("https://identity.example.com", issuer)
        .replace("/opt/identity/secrets/", secrets + "/")
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
  @Timeout(value = 480, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenStartedTwiceThenEachStartAppliesTheFilesAsTheyAreAndNoSecretIsWrittenOut()
      throws Exception {
    Http http = server.start(command(), log("server.log"), START);
    assertEquals(0, awaitReady().exitCode(), "await-ready.sh once the service is ready");
    assertEquals(issuer(), ProductionServer.metadataIssuer(http));
    // The service's readiness, not Payara's own MicroProfile Health (pre-boot.asadmin turns it
    // off).
    JsonNode health = Http.json(http.get("/health/ready"));
    assertEquals("UP", health.path("database").asText(), health.toString());
    Properties admin =
        ProductionServer.bootstrapAdministrator(secrets.resolve("bootstrap-admin.txt"));
    long suite = System.nanoTime();
    new SmokeSuite(http, admin.getProperty("client_id"), admin.getProperty("client_secret")).run();
    long suiteMillis = Duration.ofNanos(System.nanoTime() - suite).toMillis();
    assertNoSecretWrittenOut(admin.getProperty("client_secret"));
    // logging.properties: the expired CA certificates of Payara's trust store are not logged, and
    // the audit lines, every token's among them, go to their own file.
    String serverLog = Files.readString(log("server.log"), StandardCharsets.ISO_8859_1);
    String signatures = ServerProcess.rsaProviderLine(serverLog);
    // web-production.xml asks for accp, which loads on Java 17 and 25 here.
    assertTrue(signatures.startsWith("RSA signatures: AmazonCorrettoCryptoProvider "), signatures);
    System.out.printf(
        "Payara Micro %s on Java %s smoke suite: %d ms; %s%n",
        version, ServerProcess.javaVersion(), suiteMillis, signatures);
    assertFalse(serverLog.contains("NCLS-SECURITY-05054"));
    assertFalse(serverLog.contains("\"event\":\"token.issue\""), "an audit line in server.log");
    // Issue 36: Payara's directory config source reads the empty mpconfig/, not secrets/.
    assertFalse(serverLog.contains("MPCONFIG"), "Payara's config source in server.log");
    assertTrue(Files.readString(log("audit.log")).contains("\"event\":\"token.issue\""));

    server.stop();
    String moved = "http://localhost:" + server.port();
    Files.writeString(base.resolve("web-production.xml"), webXml(moved));
    http = server.start(command(), log("server.log"), START);
    assertEquals(
        moved, ProductionServer.metadataIssuer(http), "the second start's web-production.xml");
    assertEquals(
        200,
        new SmokeSuite(http, admin.getProperty("client_id"), admin.getProperty("client_secret"))
            .token(admin.getProperty("client_id"), admin.getProperty("client_secret"), true)
            .statusCode(),
        "the same database, its administrator kept");
    assertFalse(
        Files.readString(log("server.log"), StandardCharsets.ISO_8859_1).contains("already exists"),
        "a post-boot command met the previous start's configuration");

    // README "What the boot log shows", payara/Payara#8000: a broken escape fails in Payara's
    // HTTP adapter, before the WAR, with an empty 200 and a SEVERE. When this fails, Payara has
    // changed: update README.
    RawHttp.Answer broken = new RawHttp(http.uri("/")).send("GET", "/%");
    assertEquals(200, broken.status(), broken.toString());
    assertEquals("", broken.body(), broken.toString());
    Thread.sleep(500);
    String logged = Files.readString(log("server.log"), StandardCharsets.ISO_8859_1);
    assertTrue(logged.contains("AS-WEB-CORE-00037"), "the SEVERE for GET /%");
  }

  @Test
  @Timeout(value = 480, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenASecretFileIsReadableByOthersThenAwaitReadyFailsNamingItUntilItIsFixed()
      throws Exception {
    Path kek = secrets.resolve("key-encryption-key");
    Files.setPosixFilePermissions(kek, PosixFilePermissions.fromString("rw-r--r--"));
    server.launch(command(), log("server.log"));
    Script broken = awaitReady();
    System.out.println("await-ready.sh on a broken start:\n" + broken.output());
    assertEquals(1, broken.exitCode(), broken.output());
    assertTrue(broken.output().contains("Boot Command deploy failed"), broken.output());
    assertTrue(broken.output().contains("identity/keyEncryptionKeyFile"), broken.output());
    String failed = Files.readString(log("server.log"), StandardCharsets.ISO_8859_1);
    long frames = failed.lines().map(String::strip).filter(l -> l.startsWith("at ")).count();
    System.out.printf(
        "Payara Micro %s's failed start: server.log has %d lines, %d of them stack frames%n",
        version, failed.lines().count(), frames);

    // The same command after the fix: the log still holds the first start's failure.
    server.stop();
    Files.setPosixFilePermissions(kek, PosixFilePermissions.fromString("rw-------"));
    server.launch(command(), log("server.log"));
    Script fixed = awaitReady();
    assertEquals(0, fixed.exitCode(), fixed.output());
    System.out.println("await-ready.sh after the fix: " + fixed.output());
  }

  /**
   * Issue 24: docs/deploying-payara.md "Keys in an HSM": a SoftHSM2 token of this test's own,
   * {@code SOFTHSM2_CONF} in Payara's environment, the label's JVM option on its command line,
   * {@code web-production.xml} with {@code pkcs11}, the token's label and an owner-only PIN file. A
   * token is signed by a key that is listed and lives in the token; the PIN is in no log.
   */
  @Test
  @EnabledIfSystemProperty(named = "identity.softhsm.library", matches = ".+")
  @Timeout(value = 480, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenTheKeysAreInSoftHsmThenTokensAreSignedByAKeyInTheToken() throws Exception {
    HsmSmoke hsm = HsmSmoke.in(base.resolve("softhsm"), "identity");
    Path pin = secrets.resolve("pkcs11-pin");
    HsmSmoke.pinFile(pin);
    Files.writeString(
        base.resolve("web-production.xml"),
        ConfExample.of("web-production.xml", webXml(issuer()))
            .replace(entry("identity/keyStore", "database"), entry("identity/keyStore", "pkcs11"))
            .replace(
                entry("identity/pkcs11Library", ""),
                entry("identity/pkcs11Library", hsm.library.toString()))
            .replace(
                entry("identity/pkcs11TokenLabel", ""),
                entry("identity/pkcs11TokenLabel", hsm.token.label()))
            .replace(entry("identity/pkcs11PinFile", ""), entry("identity/pkcs11PinFile", pin + ""))
            .text());
    List<String> command = new ArrayList<>(command());
    command.add(1, HsmSmoke.ADD_EXPORTS); // before -jar, as the doc's start has it
    Http http = server.start(command, hsm.hsm.environment(), log("server.log"), START);
    assertEquals(0, awaitReady().exitCode(), "await-ready.sh once the service is ready");

    Properties admin =
        ProductionServer.bootstrapAdministrator(secrets.resolve("bootstrap-admin.txt"));
    String id = admin.getProperty("client_id");
    String secret = admin.getProperty("client_secret");
    String kid = hsm.assertSignedInTheToken(new SmokeSuite(http, id, secret), http, id, secret);
    assertFalse(
        Files.readString(log("server.log"), StandardCharsets.ISO_8859_1).contains(SoftHsm.PIN),
        "the PIN in server.log");
    System.out.printf(
        "Payara Micro with keyStore pkcs11 on SoftHSM2 (label %s): kid %s in the token%n",
        hsm.token.label(), kid);
  }

  /**
   * Issue 39, docs/mutual-tls.md "Payara": Payara Micro ends TLS with {@code --sslport}, the lines
   * of {@code conf/payara/mutual-tls.asadmin} after pre-boot.asadmin's, the key store (TestPki's)
   * and the trust store (Payara's own cacerts.p12 with the client's self-signed certificate added,
   * by the doc's commands) named in an owner-only {@code --systemproperties} file as the doc writes
   * it. A self_signed_tls_client_auth account registered through /admin/v1 gets a token with its
   * certificate, bound to it; /admin/v1 admits that token only with the certificate. A self-signed
   * certificate that is not in the trust store is not sent by the JDK's client when Payara does not
   * name its issuer (SPEC 7.1's missing secret, and 401 at /admin/v1), and fails the handshake when
   * it is sent (one of the same name as the registered one): Payara's trust store decides. The
   * store's password is in no file outside secrets/ and not on the command line.
   */
  @Test
  @Timeout(value = 480, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenPayaraEndsTlsThenTheCertificateClientsTokenIsBoundAndNeedsItsCertificate()
      throws Exception {
    ReadmeSteps mutual = ReadmeSteps.in("docs/mutual-tls.md", "## Payara", "## nginx in front");
    int sslPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      sslPort = socket.getLocalPort();
    }
    TestPki pki = TestPki.authority("Payara Micro IT CA");
    TestPki.Issued client = TestPki.selfSigned("CN=auditor");
    TestPki.Issued sameName = TestPki.selfSigned("CN=auditor");
    TestPki.Issued stranger = TestPki.selfSigned("CN=stranger");
    String storePassword = "store-" + UUID.randomUUID();
    Path store = base.resolve("server.p12");
    try (OutputStream out = Files.newOutputStream(store)) {
      pki.server()
          .keyStore("server", storePassword.toCharArray())
          .store(out, storePassword.toCharArray());
    }
    Files.writeString(base.resolve("orders.pem"), CertificateBinding.pem(client.certificate()));
    Files.copy(jar, base.resolve("payara-micro-6.2025.10.jar"));
    ConfExample stores =
        mutual.block("unzip -p payara-micro-6.2025.10.jar MICRO-INF/domain/cacerts.p12");
    assertEquals(0, sh("stores", stores.text()), Files.readString(base.resolve("stores.out")));
    Files.delete(base.resolve("payara-micro-6.2025.10.jar"));
    Files.delete(store);
    ownerOnly(
        secrets.resolve("tls.properties"),
        ConfExample.of("docs/mutual-tls.md's tls.properties", mutual.fenced("properties"))
            .replace("/opt/identity/", base + "/")
            .replace("keyStorePassword=PASSWORD", "keyStorePassword=" + storePassword)
            .text());
    Files.writeString(
        base.resolve("pre-boot.asadmin"),
        Files.readString(base.resolve("pre-boot.asadmin"))
            + ConfExample.read("conf/payara/mutual-tls.asadmin")
                .replace("https-listener.address=0.0.0.0", "https-listener.address=127.0.0.1")
                .text());
    String issuer = "https://127.0.0.1:" + sslPort;
    Files.writeString(base.resolve("web-production.xml"), webXml(issuer));
    String options =
        mutual.says(
            "--sslport 8443 --sslcert server --systemproperties"
                + " /opt/identity/secrets/tls.properties");
    List<String> command = new ArrayList<>(command());
    for (String option : options.split(" ")) {
      command.add(
          option.replace("8443", Integer.toString(sslPort)).replace("/opt/identity/", base + "/"));
    }
    server.start(command, log("server.log"), START);

    URI https = URI.create(issuer);
    CertificateBinding.Channel none = CertificateBinding.tls(https, pki.certificate(), null);
    CertificateBinding.Channel its = CertificateBinding.tls(https, pki.certificate(), client);
    CertificateBinding.Channel untrusted =
        CertificateBinding.tls(https, pki.certificate(), sameName);
    CertificateBinding.Channel unnamed = CertificateBinding.tls(https, pki.certificate(), stranger);
    Properties admin =
        ProductionServer.bootstrapAdministrator(secrets.resolve("bootstrap-admin.txt"));
    String adminToken =
        CertificateBinding.accessToken(
            CertificateBinding.token(
                none, admin.getProperty("client_id"), admin.getProperty("client_secret")));
    String id = CertificateBinding.register(none, adminToken, client);

    String bound = CertificateBinding.accessToken(CertificateBinding.token(its, id, null));
    assertEquals(CertificateBinding.thumbprint(client), CertificateBinding.boundThumbprint(bound));
    CertificateBinding.assertMissingSecret(CertificateBinding.token(none, id, null));
    CertificateBinding.assertMissingSecret(CertificateBinding.token(unnamed, id, null));
    assertThrows(IOException.class, () -> CertificateBinding.token(untrusted, id, null));
    CertificateBinding.Answer with = CertificateBinding.auditEvents(its, bound);
    assertEquals(200, with.status(), with.toString());
    CertificateBinding.Answer without = CertificateBinding.auditEvents(none, bound);
    assertEquals(401, without.status(), without.toString());
    CertificateBinding.Answer wrong = CertificateBinding.auditEvents(unnamed, bound);
    assertEquals(401, wrong.status(), wrong.toString());

    List<Path> files;
    try (Stream<Path> walk = Files.walk(base)) {
      files = walk.filter(Files::isRegularFile).filter(f -> !f.startsWith(secrets)).toList();
    }
    List<String> found = new ArrayList<>();
    Map<String, String> values = Map.of("the key store's password", storePassword);
    for (Path file : files) {
      found.addAll(holding(file.toString(), readable(file), values));
    }
    Path cmdline = Path.of("/proc", Long.toString(pidOfPayara()), "cmdline");
    found.addAll(holding(cmdline.toString(), Files.readAllBytes(cmdline), values));
    assertTrue(found.isEmpty(), "written out: " + found);
    System.out.printf(
        "Payara Micro with TLS (mutual-tls.asadmin): a certificate client's bound token, 200 with"
            + " its certificate at /admin/v1, 401 without%n");
  }

  /** {@code script} run by sh in this test's folder; its output in {@code step}.out. */
  int sh(String step, String script) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder("sh", "-c", script)
            .directory(base.toFile())
            .redirectErrorStream(true)
            .redirectOutput(base.resolve(step + ".out").toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(step + " did not end");
    }
    return process.exitValue();
  }

  /** README's wait: conf/payara/await-ready.sh run by sh on this server and its log. */
  Script awaitReady() throws IOException, InterruptedException {
    Process sh =
        new ProcessBuilder(
                "sh",
                base.resolve("await-ready.sh").toString(),
                issuer(),
                log("server.log").toString(),
                Long.toString(START.toSeconds()))
            .redirectErrorStream(true)
            .start();
    String output = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Script(sh.waitFor(), output);
  }

  record Script(int exitCode, String output) {}

  /**
   * No secret in any file Payara or the test wrote outside secrets/ (the instance with its
   * domain.xml and domain.xml.bak, the server and audit logs, temporary files), nor in the command
   * line.
   */
  void assertNoSecretWrittenOut(String adminSecret) throws IOException {
    Map<String, String> values =
        Map.of(
            "key-encryption key",
            ProductionServer.KEK,
            "pepper",
            ProductionServer.PEPPER,
            "database password",
            DB_PASSWORD,
            "bootstrap secret",
            adminSecret);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(base)) {
      files = walk.filter(Files::isRegularFile).filter(f -> !f.startsWith(secrets)).toList();
    }
    List<String> found = new ArrayList<>();
    for (Path file : files) {
      found.addAll(holding(file.toString(), readable(file), values));
    }
    Path cmdline = Path.of("/proc", Long.toString(pidOfPayara()), "cmdline");
    found.addAll(holding(cmdline.toString(), Files.readAllBytes(cmdline), values));
    assertTrue(found.isEmpty(), "secrets written out: " + found);
    assertTrue(files.size() > 100, files.size() + " files searched");
  }

  static byte[] readable(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> holding(String where, byte[] content, Map<String, String> values) {
    String text = new String(content, StandardCharsets.ISO_8859_1);
    List<String> found = new ArrayList<>();
    values.forEach(
        (name, value) -> {
          if (text.contains(value)) {
            found.add(name + " in " + where);
          }
        });
    return found;
  }

  long pidOfPayara() throws IOException {
    return Long.parseLong(Files.readString(base.resolve("payara/config/pid")).trim());
  }

  static void ownerOnly(Path file, String content) throws IOException {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, content);
  }
}
