package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.FreshPostgres;
import dev.platform.identity.hsm.SoftHsm;
import dev.platform.identity.tls.TestPki;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/deploying-tomcat.md, "Tomcat 10.1", run as written with {@code sh}: the Tomcat zip unpacked
 * into a folder of its own, {@code conf/tomcat/context-production.xml} on a fresh PostgreSQL
 * database owned by a new role with a password, the secret files, {@code catalina.properties},
 * {@code setenv.sh}, the server.xml and logging changes, the wait with its deadline, {@code
 * catalina.sh stop}. Only a Tomcat whose command line names this test's folder is ever signalled.
 */
@EnabledIfSystemProperty(named = "identity.tomcat.zip", matches = ".+")
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
@ParameterizedClass(name = "Tomcat {0}")
@MethodSource("zips")
class TomcatDistributionIT {
  final Path zip;
  final String version;

  ReadmeSteps deploying;
  ReadmeSteps tomcat;
  Path folder;
  Path catalina;
  FreshPostgres database;
  String role;
  String password;
  int port;
  final List<Path> outputs = new ArrayList<>();

  TomcatDistributionIT(Path zip) {
    this.zip = zip;
    this.version = zip.getFileName().toString().replaceAll("^tomcat-|\\.zip$", "");
  }

  /**
   * The zips {@code -Pservers} fetched: {@code identity.tomcat.zip} (10.1, the launcher's) and,
   * where set, {@code identity.tomcat11.zip}; every test runs on each, the same WAR.
   */
  static Stream<Path> zips() {
    return Stream.of("identity.tomcat.zip", "identity.tomcat11.zip")
        .map(name -> System.getProperty(name, ""))
        .filter(zip -> !zip.isBlank())
        .map(Path::of);
  }

  @BeforeEach
  void prepare() throws Exception {
    deploying =
        ReadmeSteps.in("docs/deploying-tomcat.md", "## Before any server", "## Tomcat 10.1 or 11");
    tomcat = ReadmeSteps.in("docs/deploying-tomcat.md", "## Tomcat 10.1 or 11", null);
    folder = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tomcat-");
    catalina = folder.resolve("apache-tomcat-" + version);
    database = FreshPostgres.create("identity_tomcat");
    byte[] random = new byte[18];
    new SecureRandom().nextBytes(random);
    role = "identity_tomcat_" + HexFormat.of().formatHex(random, 0, 6);
    // Distinctive, so that the log search can look for it; the test server trusts loopback, so
    // PostgreSQL does not check it.
    password = "db-" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    admin("create role " + role + " login password '" + password + "'");
    admin("alter database " + database.dataSource().getDatabaseName() + " owner to " + role);
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    System.out.printf(
        "Tomcat %s runs on Java %s (JAVA_HOME=%s)%n",
        version, ServerProcess.javaVersion(), ServerProcess.javaHome());
  }

  @AfterEach
  void cleanUp() throws Exception {
    try {
      for (ProcessHandle left : tomcats()) {
        left.destroyForcibly();
        left.onExit().get(10, TimeUnit.SECONDS);
      }
    } finally {
      database.close();
      admin("drop role if exists " + role);
    }
  }

  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenInstalledAsTheReadmeSaysThenItServesLogsNoSecretAndStops() throws Exception {
    long installing = System.nanoTime();
    install("http://127.0.0.1:" + port);
    long installed = System.nanoTime();
    assertEquals(0, waitForStart(), tail("start"));
    long ready = System.nanoTime();
    long pid = Long.parseLong(Files.readString(catalina.resolve("temp/tomcat.pid")).trim());
    String commandLine = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    assertTrue(commandLine.contains("-Dcatalina.base=" + catalina), commandLine);

    Properties admin =
        ProductionServer.bootstrapAdministrator(
            catalina.resolve("conf/identity/bootstrap-admin.txt"));
    String adminSecret = admin.getProperty("client_secret");
    Http http = new Http(new URL("http://127.0.0.1:" + port + "/"));
    new SmokeSuite(http, admin.getProperty("client_id"), adminSecret).run();
    // Tomcat refuses TRACE in its connector, yet still runs the WAR's error page for it.
    RawHttp.Answer trace = new RawHttp(http.uri("/")).send("TRACE", "/oauth/token");
    ErrorShapes.oauth(trace, 405);
    assertEquals("POST", trace.header("Allow"), trace.toString());
    long tested = System.nanoTime();

    assertEquals(0, run("stop", tomcat.block("\"$CATALINA_HOME/bin/catalina.sh\" stop")));
    long stopped = System.nanoTime();
    assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), tail("stop"));
    assertTrue(tail("stop").contains("Tomcat stopped."), tail("stop"));

    Map<Path, String> logs = logs();
    String console = Files.readString(catalina.resolve("logs/catalina.out"));
    // VersionLoggerListener's line: the JDK chosen by identity.server.java.home, not the test's.
    assertTrue(
        console.contains("Java Home:             " + ServerProcess.javaHome().toRealPath()),
        console);
    String signatures = ServerProcess.rsaProviderLine(console);
    // context-production.xml asks for accp; it loads on Java 17 and 25 here, so the JDK's provider
    // would mean a JDK (or a Tomcat) on which ACCP's native library no longer loads.
    assertTrue(signatures.startsWith("RSA signatures: AmazonCorrettoCryptoProvider "), signatures);
    logs.forEach((file, text) -> assertFalse(text.contains("failed to unregister it"), file + ""));
    // Issue 36: ACCP's thread is not the application's to Tomcat, so no warning at the stop.
    logs.forEach(
        (file, text) -> assertFalse(text.contains("Native reference cleanup thread"), file + ""));
    assertOwnerOnly(logs.keySet());
    Map<String, String> places = new LinkedHashMap<>();
    logs.forEach((file, text) -> places.put(file.toString(), text));
    places.put("the command line of Tomcat (pid " + pid + ")", commandLine);
    assertNoSecretIn(places, adminSecret);
    assertAuditLinesOnceInTheirFile(logs);
    System.out.printf(
        "Tomcat %s on Java %s by the README: installed in %d ms, ready %d ms after the start, suite"
            + " %d ms, stopped in %d ms; %s%n",
        version,
        ServerProcess.javaVersion(),
        millis(installing, installed),
        millis(installed, ready),
        millis(ready, tested),
        millis(tested, stopped),
        signatures);
  }

  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenTheIssuerIsWrongThenTheWaitFailsSayingWhyAndTomcatIsGone() throws Exception {
    install("http://identity.example.com");
    long start = System.nanoTime();
    assertEquals(1, waitForStart(), tail("start"));
    long failed = System.nanoTime();

    assertTrue(tail("start").contains("identity/issuer"), tail("start"));
    assertTrue(tail("start").contains("Tomcat stopped."), tail("start"));
    assertEquals(List.of(), tomcats());
    String log = Files.readString(catalina.resolve("logs/catalina.out"));
    assertTrue(log.contains("The identity service cannot start"), log);
    assertTrue(log.contains("identity/issuer"), log);
    FailedStart lines = FailedStart.in(log, localhostLog());
    // Issue 36: the reason in a line, no stack trace (before: 60-70 frames, twice).
    assertEquals(0, lines.frames(), log);
    System.out.printf(
        "Tomcat %s with a wrong issuer: the README's wait failed after %d ms; the failed start"
            + " logged %d lines, %d of them stack frames%n",
        version, millis(start, failed), lines.lines(), lines.frames());
  }

  /**
   * Issue 36 item 12: the README's {@code catalina.properties} line left out, so the resource's
   * password stays {@code ${identity.db.password}}: the wait fails naming that property, before any
   * connection is made.
   */
  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenTheDatabasePasswordIsNotSetThenTheWaitFailsNamingTheProperty() throws Exception {
    install(
        "http://127.0.0.1:" + port,
        "echo 'identity.db.password=PASSWORD' >> \"$CATALINA_BASE/conf/catalina.properties\"\n");
    assertEquals(1, waitForStart(), tail("start"));

    String named = "no system property identity.db.password is set";
    assertTrue(tail("start").contains(named), tail("start"));
    assertTrue(tail("start").contains("java:comp/env/jdbc/identity"), tail("start"));
    assertEquals(List.of(), tomcats());
    String log = Files.readString(catalina.resolve("logs/catalina.out"));
    assertFalse(log.contains("cannot be reached"), "no connection was tried: " + log);
    FailedStart lines = FailedStart.in(log, localhostLog());
    assertEquals(0, lines.frames(), log);
    System.out.printf(
        "Tomcat %s without the database password: the failed start logged %d lines, %d of them"
            + " stack frames%n",
        version, lines.lines(), lines.frames());
  }

  /**
   * Issue 39, docs/mutual-tls.md "Tomcat 10.1 distribution", TLS at Tomcat: the doc's jar of
   * AnyClientCertificate and TrustedProxyHeaders in Tomcat's lib/, a server key store of TestPki's
   * with its owner-only password file, {@code conf/tomcat/mutual-tls/server-https.xml} in place of
   * the HTTP connector (on loopback and this test's port), the doc's wait over HTTPS. A
   * self_signed_tls_client_auth account registered through /admin/v1 gets a token with its
   * certificate, bound to it ({@code cnf.x5t#S256}); /admin/v1 admits that token only over a
   * connection that presents the same certificate, and the token endpoint without the certificate
   * gives SPEC 7.1's missing secret.
   */
  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenTlsEndsAtTomcatThenTheCertificateClientsTokenIsBoundAndNeedsItsCertificate()
      throws Exception {
    ReadmeSteps mutual = mutualTlsSteps();
    TestPki pki = TestPki.authority("Tomcat distribution IT CA");
    install("https://127.0.0.1:" + port);
    assertEquals(0, run("tls-jar", tlsJar(mutual)));
    Path store = folder.resolve("server.p12");
    Path storePassword = folder.resolve("server.p12.password");
    char[] secret = ("store-" + password).toCharArray();
    try (OutputStream out = Files.newOutputStream(store)) {
      pki.server().keyStore("server", secret).store(out, secret);
    }
    Files.createFile(
        storePassword,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(storePassword, new String(secret) + "\n");
    assertEquals(
        0,
        run(
            "key-store",
            mutual
                .block("(umask 077; mkdir -p \"$CATALINA_BASE/conf/identity\"")
                .replace(
                    "cp server.p12 server.p12.password", "cp " + store + " " + storePassword)));
    Path server = catalina.resolve("conf/server.xml");
    Files.writeString(server, httpsConnector(Files.readString(server)));
    Path authority = folder.resolve("ca.pem");
    Files.writeString(authority, CertificateBinding.pem(pki.certificate()));
    String wait = mutual.says("curl -sf --cacert ca.pem https://127.0.0.1:8443/health/ready");
    assertEquals(
        0,
        run(
            "start",
            tomcat
                .block("log=\"$CATALINA_BASE/logs/catalina.out\"")
                .replace(
                    "curl -sf http://127.0.0.1:8080/health/ready",
                    wait.replace("ca.pem", authority.toString()).replace("8443", "" + port))),
        tail("start"));
    for (Path file :
        List.of(
            catalina.resolve("conf/identity/server.p12"),
            catalina.resolve("conf/identity/server.p12.password"))) {
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
          file.toString());
    }

    URI base = URI.create("https://127.0.0.1:" + port);
    TestPki.Issued client = TestPki.selfSigned("CN=auditor");
    TestPki.Issued other = TestPki.selfSigned("CN=auditor");
    CertificateBinding.Channel none = CertificateBinding.tls(base, pki.certificate(), null);
    CertificateBinding.Channel its = CertificateBinding.tls(base, pki.certificate(), client);
    CertificateBinding.Channel another = CertificateBinding.tls(base, pki.certificate(), other);
    Properties admin =
        ProductionServer.bootstrapAdministrator(
            catalina.resolve("conf/identity/bootstrap-admin.txt"));
    String adminToken =
        CertificateBinding.accessToken(
            CertificateBinding.token(
                none, admin.getProperty("client_id"), admin.getProperty("client_secret")));
    String id = CertificateBinding.register(none, adminToken, client);

    String bound = CertificateBinding.accessToken(CertificateBinding.token(its, id, null));
    assertEquals(CertificateBinding.thumbprint(client), CertificateBinding.boundThumbprint(bound));
    assertEquals(401, CertificateBinding.token(another, id, null).status());
    CertificateBinding.assertMissingSecret(CertificateBinding.token(none, id, null));
    CertificateBinding.Answer with = CertificateBinding.auditEvents(its, bound);
    assertEquals(200, with.status(), with.toString());
    CertificateBinding.Answer without = CertificateBinding.auditEvents(none, bound);
    assertEquals(401, without.status(), without.toString());
    CertificateBinding.Answer wrong = CertificateBinding.auditEvents(another, bound);
    assertEquals(401, wrong.status(), wrong.toString());

    assertEquals(0, run("stop", tomcat.block("\"$CATALINA_HOME/bin/catalina.sh\" stop")));
    Map<String, String> places = new LinkedHashMap<>();
    logs().forEach((file, text) -> places.put(file.toString(), text));
    places.forEach(
        (place, text) ->
            assertFalse(text.contains(new String(secret)), "the store password in " + place));
    System.out.printf(
        "Tomcat %s with TLS (server-https.xml): a certificate client's bound token, 200 with its"
            + " certificate at /admin/v1, 401 without%n",
        version);
  }

  /**
   * Issue 39, docs/mutual-tls.md "Tomcat 10.1 distribution", TLS at a proxy: the doc's jar in
   * Tomcat's lib/ and {@code conf/tomcat/mutual-tls/server-proxy.xml}'s two valves first in the
   * Engine, the HTTP connector on loopback as deploying-tomcat.md has it. From 127.0.0.1, which the
   * example's {@code trustedProxies} names, the {@code ssl_client_escaped_cert} header is the
   * client's certificate: a bound token, admitted at /admin/v1 with the header and refused without.
   * The same header from 127.0.0.2 is removed: no certificate, so no token and no admission.
   */
  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenAProxyOutsideTrustedProxiesSendsTheCertificateHeaderThenItIsIgnored() throws Exception {
    ReadmeSteps mutual = mutualTlsSteps();
    install("http://127.0.0.1:" + port);
    assertEquals(0, run("tls-jar", tlsJar(mutual)));
    String valves = ConfExample.read("conf/tomcat/mutual-tls/server-proxy.xml").text();
    valves = valves.substring(valves.indexOf("<Valve "));
    Path server = catalina.resolve("conf/server.xml");
    Files.writeString(
        server,
        ConfExample.of("the installed server.xml", Files.readString(server))
            .replace(
                "<Engine name=\"Catalina\" defaultHost=\"localhost\">",
                "<Engine name=\"Catalina\" defaultHost=\"localhost\">\n" + valves)
            .text());
    assertEquals(0, waitForStart(), tail("start"));

    TestPki.Issued client = TestPki.selfSigned("CN=auditor");
    CertificateBinding.Channel none = CertificateBinding.proxied("127.0.0.1", port, null);
    CertificateBinding.Channel trusted = CertificateBinding.proxied("127.0.0.1", port, client);
    CertificateBinding.Channel untrusted =
        CertificateBinding.proxied(BoundHttp.PROBE_ADDRESS, port, client);
    Properties admin =
        ProductionServer.bootstrapAdministrator(
            catalina.resolve("conf/identity/bootstrap-admin.txt"));
    String adminToken =
        CertificateBinding.accessToken(
            CertificateBinding.token(
                none, admin.getProperty("client_id"), admin.getProperty("client_secret")));
    String id = CertificateBinding.register(none, adminToken, client);

    CertificateBinding.assertMissingSecret(CertificateBinding.token(untrusted, id, null));
    String bound = CertificateBinding.accessToken(CertificateBinding.token(trusted, id, null));
    assertEquals(CertificateBinding.thumbprint(client), CertificateBinding.boundThumbprint(bound));
    CertificateBinding.Answer with = CertificateBinding.auditEvents(trusted, bound);
    assertEquals(200, with.status(), with.toString());
    CertificateBinding.Answer without = CertificateBinding.auditEvents(none, bound);
    assertEquals(401, without.status(), without.toString());
    CertificateBinding.Answer fromElsewhere = CertificateBinding.auditEvents(untrusted, bound);
    assertEquals(401, fromElsewhere.status(), fromElsewhere.toString());

    assertEquals(0, run("stop", tomcat.block("\"$CATALINA_HOME/bin/catalina.sh\" stop")));
    String log = Files.readString(catalina.resolve("logs/catalina.out"));
    assertTrue(log.contains(BoundHttp.PROBE_ADDRESS), "TrustedProxyHeaders' warning: " + log);
    System.out.printf(
        "Tomcat %s with server-proxy.xml: the certificate header counts from 127.0.0.1, not from"
            + " %s%n",
        version, BoundHttp.PROBE_ADDRESS);
  }

  static ReadmeSteps mutualTlsSteps() throws IOException {
    return ReadmeSteps.in("docs/mutual-tls.md", "## Tomcat 10.1 distribution", "## Payara");
  }

  /** The doc's jar of the two classes, into Tomcat's lib/ (-Pservers packaged the classes). */
  static ConfExample tlsJar(ReadmeSteps mutual) {
    return mutual
        .block("mvn -B -q -DskipTests package")
        .replace("mvn -B -q -DskipTests package\n", "");
  }

  /**
   * The installed server.xml with server-https.xml's connector in place of the HTTP one, on
   * loopback and this test's port.
   */
  String httpsConnector(String installed) throws IOException {
    String example = ConfExample.read("conf/tomcat/mutual-tls/server-https.xml").text();
    String connector =
        ConfExample.of(
                "server-https.xml's connector",
                example.substring(
                    example.indexOf("<Connector "),
                    example.indexOf("</Connector>") + "</Connector>".length()))
            .replace("port=\"8443\"", "port=\"" + port + "\"")
            .replace("address=\"0.0.0.0\"", "address=\"127.0.0.1\"")
            .text();
    Matcher http =
        Pattern.compile(
                "<Connector port=\""
                    + port
                    + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"[^>]*/>")
            .matcher(installed);
    assertTrue(http.find(), installed);
    return installed.substring(0, http.start()) + connector + installed.substring(http.end());
  }

  /**
   * The lines of catalina.out from the service's "cannot start" to Tomcat's "startup failed", and
   * how many of them are stack frames ({@code at ...} or {@code ... N more}).
   */
  record FailedStart(int lines, int frames) {
    /**
     * The failed start in catalina.out, and the stack frames of localhost.DATE.log, where Tomcat
     * logs the listener's exception ("Exception sending context initialized event").
     */
    static FailedStart in(String log, String localhost) {
      FailedStart catalina = in(log);
      int more = (int) localhost.lines().filter(FailedStart::isFrame).count();
      return new FailedStart(
          catalina.lines() + (int) localhost.lines().count(), catalina.frames + more);
    }

    static boolean isFrame(String line) {
      String stripped = line.strip();
      return stripped.startsWith("at ") || stripped.matches("\\.\\.\\. \\d+ more");
    }

    static FailedStart in(String log) {
      List<String> all = log.lines().toList();
      int from = 0;
      while (from < all.size() && !all.get(from).contains("The identity service cannot start")) {
        from++;
      }
      int to = from;
      while (to < all.size() && !all.get(to).contains("startup failed due to previous errors")) {
        to++;
      }
      List<String> failed = all.subList(from, Math.min(to + 1, all.size()));
      int frames = (int) failed.stream().filter(FailedStart::isFrame).count();
      return new FailedStart(failed.size(), frames);
    }
  }

  /** Tomcat's localhost.DATE.log, the host's log (empty text if there is none). */
  String localhostLog() throws IOException {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<Path, String> log : logs().entrySet()) {
      if (log.getKey().getFileName().toString().startsWith("localhost.")) {
        text.append(log.getValue());
      }
    }
    return text.toString();
  }

  /** Issue 36: the README's {@code UMASK=0077} makes Tomcat's logs owner-only, as Payara's are. */
  void assertOwnerOnly(Iterable<Path> logs) throws IOException {
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(catalina.resolve("logs"))));
    for (Path file : logs) {
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
          file.toString());
    }
  }

  /**
   * Issue 24: docs/deploying-tomcat.md "Keys in an HSM" on the same distribution: a SoftHSM2 token
   * of this test's own, its {@code SOFTHSM2_CONF} through the doc's {@code setenv.sh} block, {@code
   * context-production.xml} with {@code pkcs11}, the slot and an owner-only PIN file. A token is
   * signed by a key that is listed and lives in the token; the PIN is in no log.
   */
  @Test
  @EnabledIfSystemProperty(named = "identity.softhsm.library", matches = ".+")
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void whenTheKeysAreInSoftHsmThenTokensAreSignedByAKeyInTheToken() throws Exception {
    install("http://127.0.0.1:" + port);
    HsmSmoke hsm = HsmSmoke.in(folder.resolve("softhsm"), "identity");
    Path pin = catalina.resolve("conf/identity/pkcs11-pin");
    HsmSmoke.pinFile(pin);
    Path context = catalina.resolve("conf/Catalina/localhost/ROOT.xml");
    Files.writeString(
        context,
        ConfExample.of("the installed ROOT.xml", Files.readString(context))
            .replace(environment("keyStore", "database"), environment("keyStore", "pkcs11"))
            .replace(
                environment("pkcs11Library", ""),
                environment("pkcs11Library", hsm.library.toString()))
            .replace(
                environment("pkcs11Slot", ""),
                environment("pkcs11Slot", Long.toString(hsm.token.slot())))
            .replace(environment("pkcs11PinFile", ""), environment("pkcs11PinFile", pin + ""))
            .text());
    assertEquals(
        0,
        run(
            "setenv",
            tomcat
                .block("cat >> \"$CATALINA_BASE/bin/setenv.sh\"")
                .replace("/etc/identity/softhsm2.conf", hsm.hsm.conf().toString())));
    long started = System.nanoTime();
    assertEquals(0, waitForStart(), tail("start"));
    long ready = System.nanoTime();

    Properties admin =
        ProductionServer.bootstrapAdministrator(
            catalina.resolve("conf/identity/bootstrap-admin.txt"));
    Http http = new Http(new URL("http://127.0.0.1:" + port + "/"));
    String id = admin.getProperty("client_id");
    String secret = admin.getProperty("client_secret");
    String kid = hsm.assertSignedInTheToken(new SmokeSuite(http, id, secret), http, id, secret);

    assertEquals(0, run("stop", tomcat.block("\"$CATALINA_HOME/bin/catalina.sh\" stop")));
    logs().forEach((file, text) -> assertFalse(text.contains(SoftHsm.PIN), "the PIN in " + file));
    System.out.printf(
        "Tomcat %s with keyStore pkcs11 on SoftHSM2 (slot %d): ready %d ms after the start, kid %s"
            + " in the token%n",
        version, hsm.token.slot(), millis(started, ready), kid);
  }

  /**
   * The {@code <Environment>} of {@code identity/NAME} with {@code value}, as the examples write
   * it.
   */
  static String environment(String name, String value) {
    return "name=\"identity/" + name + "\" value=\"" + value + "\"";
  }

  /** Every step before the start, as the README says, with this machine's values. */
  void install(String issuer) throws IOException, InterruptedException {
    install(issuer, null);
  }

  /** The same, the README's line {@code leftOut} (when not null) left out of its block. */
  void install(String issuer, String leftOut) throws IOException, InterruptedException {
    ConfExample unpack =
        tomcat
            .block("version=")
            .replace("version=10.1.60   # or 11.0.24\n", "version=" + version + "\n")
            .replace(
                "mvn -B -q dependency:copy -Dartifact=org.apache.tomcat:tomcat:$version:zip"
                    + " -DoutputDirectory=target/deploy\n",
                "") // -Pservers did this
            .replace("target/deploy/tomcat-$version.zip", zip.toAbsolutePath().toString())
            .replace("/opt", folder.toString());
    assertEquals(0, run("unpack", unpack));
    ConfExample secrets =
        deploying
            .line("SECRETS/key-encryption-key")
            .replace("SECRETS", "\"$CATALINA_BASE/conf/identity\"");
    assertEquals(0, run("secrets", secrets));
    assertEquals(0, run("install", tomcat.block("(cd \"$CATALINA_BASE/webapps\"")));
    Path context = catalina.resolve("conf/Catalina/localhost/ROOT.xml");
    Files.writeString(context, contextXml(Files.readString(context), issuer));
    ConfExample setenv =
        tomcat
            .block("chmod 600 \"$CATALINA_BASE/conf/catalina.properties\"")
            .replace(leftOut == null ? "\n" : leftOut, leftOut == null ? "\n" : "");
    assertEquals(
        0,
        run(
            "password",
            leftOut != null
                ? setenv
                : setenv.replace(
                    "identity.db.password=PASSWORD", "identity.db.password=" + password)));
    Path server = catalina.resolve("conf/server.xml");
    Files.writeString(server, serverXml(Files.readString(server)));
    assertEquals(
        0, run("logging", tomcat.block("cat >> \"$CATALINA_BASE/conf/logging.properties\"")));
  }

  /** The README's start and wait; its exit status. */
  int waitForStart() throws IOException, InterruptedException {
    return run(
        "start",
        tomcat
            .block("log=\"$CATALINA_BASE/logs/catalina.out\"")
            .replace("http://127.0.0.1:8080/", "http://127.0.0.1:" + port + "/"));
  }

  /** conf/tomcat/context-production.xml with this machine's database, role and issuer. */
  String contextXml(String installed, String issuer) {
    return ConfExample.of("the installed ROOT.xml", installed)
        .replace(
            "jdbc:postgresql://db.internal:5432/identity?",
            "jdbc:postgresql://127.0.0.1:5432/" + database.dataSource().getDatabaseName() + "?")
        .replace("username=\"identity\"", "username=\"" + role + "\"")
        .replace("value=\"https://identity.example.com\"", "value=\"" + issuer + "\"")
        .replace(
            "name=\"identity/rateLimitStore\" value=\"memory\"",
            "name=\"identity/rateLimitStore\" value=\"database\"")
        .text();
  }

  /** The distribution's server.xml with the README's changes, and this test's port. */
  String serverXml(String installed) {
    return ConfExample.of("the distribution's server.xml", installed)
        .replace(
            "<Server port=\"8005\" shutdown=\"SHUTDOWN\">",
            tomcat.says("<Server port=\"-1\" shutdown=\"SHUTDOWN\">"))
        .replace(
            "<Connector port=\"8080\" protocol=\"HTTP/1.1\"",
            tomcat
                .says("<Connector port=\"8080\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"")
                .replace("8080", String.valueOf(port)))
        .replace(
            "connectionTimeout=\"20000\"",
            tomcat.says(
                "connectionTimeout=\"5000\" keepAliveTimeout=\"20000\" maxSwallowSize=\"0\""
                    + " maxKeepAliveRequests=\"100\" continueResponseTiming=\"immediately\""))
        .replace(
            "unpackWARs=\"true\" autoDeploy=\"true\">",
            tomcat.says("unpackWARs=\"true\" autoDeploy=\"false\">")
                + "\n        "
                + tomcat.says(
                    "<Valve className=\"org.apache.catalina.valves.ErrorReportValve\""
                        + " showReport=\"false\" showServerInfo=\"false\"/>"))
        .text();
  }

  /**
   * Neither secret file's value, nor the database password, nor the administrator's secret is in
   * any of {@code places} (name to text) or in the output of a README step.
   */
  void assertNoSecretIn(Map<String, String> places, String adminSecret) throws IOException {
    for (Path output : outputs) {
      places.put(output.toString(), Files.readString(output));
    }
    Map<String, String> secrets =
        Map.of(
            "the key-encryption key",
            secret("key-encryption-key"),
            "the pepper",
            secret("secret-pepper"),
            "the database password",
            password,
            "the administrator's secret",
            adminSecret);
    secrets.forEach(
        (secret, value) ->
            places.forEach(
                (place, text) -> assertFalse(text.contains(value), secret + " is in " + place)));
  }

  /**
   * An audit line (the JSON after the logger's name) is in {@code audit.DATE.log} and in no other
   * file, once: not also in catalina.out and catalina.DATE.log through the root's two handlers.
   */
  void assertAuditLinesOnceInTheirFile(Map<Path, String> logs) {
    Path audit =
        logs.keySet().stream()
            .filter(file -> file.getFileName().toString().startsWith("audit."))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no audit file in " + logs.keySet()));
    List<String> lines = logs.get(audit).lines().toList();
    assertFalse(lines.isEmpty(), audit + " is empty");
    String line = lines.get(0);
    String record = line.substring(line.indexOf('{'));
    long times =
        logs.values().stream()
            .flatMap(String::lines)
            .filter(other -> other.contains(record))
            .count();
    assertEquals(1, times, record);
  }

  /** Runs a README block with {@code sh} in the project folder; its output is kept. */
  int run(String step, ConfExample block) throws IOException, InterruptedException {
    outputs.add(folder.resolve(step + ".out"));
    return block.run(
        step,
        folder,
        Map.of(
            "CATALINA_HOME", catalina.toString(),
            "CATALINA_BASE", catalina.toString(),
            "JAVA_HOME", ServerProcess.javaHome().toString()),
        Duration.ofSeconds(150));
  }

  String tail(String step) {
    try {
      return Files.readString(folder.resolve(step + ".out"));
    } catch (IOException e) {
      return e.toString();
    }
  }

  String secret(String file) throws IOException {
    return Files.readString(catalina.resolve("conf/identity/" + file)).trim();
  }

  /** Every file under logs/, by name. */
  Map<Path, String> logs() throws IOException {
    Map<Path, String> logs = new TreeMap<>();
    try (Stream<Path> files = Files.walk(catalina.resolve("logs"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        logs.put(file, Files.readString(file, StandardCharsets.ISO_8859_1));
      }
    }
    return logs;
  }

  /** The Tomcat processes of this test: their command line names its folder. */
  List<ProcessHandle> tomcats() {
    return ProcessHandle.allProcesses()
        .filter(process -> process.info().commandLine().orElse("").contains(catalina.toString()))
        .filter(ProcessHandle::isAlive)
        .toList();
  }

  void admin(String sql) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(System.getProperty("identity.postgres.url"));
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  static long millis(long from, long to) {
    return Duration.ofNanos(to - from).toMillis();
  }
}
