package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command: the launcher jar, run as a user runs it, in its own process. */
class LauncherIT {
  static final Pattern SECRET = Pattern.compile("client_secret: (\\S+)");
  static final Pattern CLIENT_ID = Pattern.compile("client_id: +(\\S+)");

  @TempDir Path data;

  /** A launcher process, its output collected, ready once it says it listens. */
  static final class Launched implements AutoCloseable {
    final Process process;
    final int port;
    final List<String> lines = new ArrayList<>();
    final CountDownLatch listening = new CountDownLatch(1);
    final Thread reader = new Thread(this::read, "launcher-output");
    volatile boolean listens;

    Launched(int port, String... extra) throws IOException {
      this(List.of(), port, extra);
    }

    /** With options for the JVM ({@code jvm}) as well as for the launcher ({@code extra}). */
    Launched(List<String> jvm, int port, String... extra) throws IOException {
      this(Map.of(), jvm, port, extra);
    }

    /** And with variables added to the process's environment (issue 24: SOFTHSM2_CONF). */
    Launched(Map<String, String> environment, List<String> jvm, int port, String... extra)
        throws IOException {
      this.port = port;
      List<String> command = new ArrayList<>();
      command.add(ServerProcess.java());
      command.addAll(jvm);
      command.addAll(
          List.of(
              "-jar", "target/launcher/identity-launcher.jar", "--port", Integer.toString(port)));
      command.addAll(List.of(extra));
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().putAll(environment);
      process = builder.start();
      System.out.printf(
          "The launcher (pid %d) runs on Java %s (%s)%n",
          process.pid(), ServerProcess.javaVersion(), command.get(0));
      reader.setDaemon(true);
      reader.start();
    }

    private void read() {
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          synchronized (lines) {
            lines.add(line);
          }
          if (line.contains("Identity service listening on")) {
            listens = true;
            listening.countDown();
          }
        }
      } catch (IOException e) {
        // the process ended
      } finally {
        listening.countDown();
      }
    }

    /** Waits until the service listens (or the process ended) and says which. */
    boolean awaitListening() throws InterruptedException {
      return listening.await(90, TimeUnit.SECONDS) && listens;
    }

    String output() {
      synchronized (lines) {
        return String.join("\n", lines);
      }
    }

    int get(String path) throws IOException, InterruptedException {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    }

    /**
     * Ctrl-C: SIGTERM runs the shutdown hook, which stops Tomcat cleanly; returns once the output
     * is read to its end. By the process handle: {@code Process.destroy} also closes the pipes, so
     * the lines of the stop would be lost.
     */
    @Override
    public void close() throws InterruptedException {
      process.toHandle().destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
      reader.join(TimeUnit.SECONDS.toMillis(10));
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * Issue 25: the README's "Trying it" walk-through, its shell blocks run by {@code sh} as written
   * (the port aside) against a launcher, with the printed credentials in {@code ID} and {@code
   * SECRET}: the token's claims, the keys, an account created with the token, the refusal.
   */
  @Test
  void whenTheReadmesWalkThroughIsRunThenEachStepAnswersAsItSays() throws Exception {
    try (Launched launched = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher id = CLIENT_ID.matcher(launched.output());
      Matcher secret = SECRET.matcher(launched.output());
      assertTrue(id.find() && secret.find(), launched.output());
      ReadmeSteps trying = ReadmeSteps.between("## Trying it", "## Console");
      String script =
          trying.block("TOKEN=$(curl").text()
              + trying.block("curl -s http://127.0.0.1:8080/admin/v1/service-accounts").text()
              + "echo\n"
              + trying.block("curl -s http://127.0.0.1:8080/oauth/token -d grant_type").text();
      ProcessBuilder sh =
          new ProcessBuilder(
                  "sh", "-c", script.replace("127.0.0.1:8080", "127.0.0.1:" + launched.port))
              .redirectErrorStream(true);
      sh.environment().put("ID", id.group(1));
      sh.environment().put("SECRET", secret.group(1));
      Process run = sh.start();
      String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(run.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, run.exitValue(), out);
      assertTrue(out.contains("\"iss\":\"http://127.0.0.1:"), "the decoded claims: " + out);
      assertTrue(out.contains("\"scopes\":[\"identity:admin\"]"), out);
      assertTrue(out.contains("{\"keys\":[{\"kid\":"), "the keys: " + out);
      assertTrue(out.contains("\"client_secret\":") && out.contains("\"name\":\"orders\""), out);
      assertTrue(
          out.contains(
              "{\"error\":\"invalid_request\",\"error_description\":\"missing parameters:"
                  + " client_id, client_secret\"}"),
          out);
    }
  }

  /**
   * Issue 22: docs/private-key-jwt.md's steps, run as written with openssl, basenc and curl: the
   * account is created with the public key, the assertion gets a token, and the same assertion sent
   * again is refused as a replay.
   */
  @Test
  void whenTheReadmesPrivateKeyJwtStepsAreRunThenTheAssertionGetsOneToken() throws Exception {
    try (Launched launched = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher id = CLIENT_ID.matcher(launched.output());
      Matcher secret = SECRET.matcher(launched.output());
      assertTrue(id.find() && secret.find(), launched.output());
      ReadmeSteps keys = ReadmeSteps.in("docs/private-key-jwt.md", "## The steps", null);
      String assertion = keys.block("NOW=$(date").text();
      String again = assertion.substring(assertion.indexOf("curl -s"));
      String script =
          "cd "
              + data
              + "\n"
              + ReadmeSteps.between("## Trying it", "## Console").block("TOKEN=$(curl").text()
              + keys.block("openssl genpkey").text()
              + "echo \"account $CLIENT_ID\"\n"
              + assertion
              + "echo\n"
              + again;
      ProcessBuilder bash =
          new ProcessBuilder(
                  "bash", "-c", script.replace("127.0.0.1:8080", "127.0.0.1:" + launched.port))
              .redirectErrorStream(true);
      bash.environment().put("ID", id.group(1));
      bash.environment().put("SECRET", secret.group(1));
      Process run = bash.start();
      String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(run.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, run.exitValue(), out);
      assertTrue(out.matches("(?s).*account [0-9a-f-]{36}\n.*"), out);
      assertTrue(out.contains("\"token_type\":\"Bearer\""), out);
      assertTrue(out.contains("jti was already used"), out);
    }
  }

  /**
   * Issue 40: docs/api.md's DPoP steps, run as written with openssl, basenc and curl against a
   * launcher with {@code --dpop-nonces}: an account that requires DPoP is created, its first proof
   * (without a nonce) is refused with {@code use_dpop_nonce}, and the retry with the nonce from
   * {@code DPoP-Nonce} gets a DPoP token bound to the openssl key.
   */
  @Test
  void whenTheApiDocsDpopStepsAreRunThenTheNonceRetryGetsADpopToken() throws Exception {
    try (Launched launched = new Launched(freePort(), "--data", data.toString(), "--dpop-nonces")) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher id = CLIENT_ID.matcher(launched.output());
      Matcher secret = SECRET.matcher(launched.output());
      assertTrue(id.find() && secret.find(), launched.output());
      ReadmeSteps dpop =
          ReadmeSteps.in(
              "docs/api.md",
              "## DPoP: tokens bound to a key the client holds (issue 40)",
              "## Accounts that require DPoP");
      ReadmeSteps required = ReadmeSteps.in("docs/api.md", "## Accounts that require DPoP", null);
      String script =
          "cd "
              + data
              + "\n"
              + ReadmeSteps.between("## Trying it", "## Console").block("TOKEN=$(curl").text()
              + "ADMIN=$TOKEN\nCREATED=$("
              + required.block("curl -s http://127.0.0.1:8080/admin/v1/service-accounts").text()
              + ")\necho \"created $CREATED\"\n"
              + "CLIENT_ID=$(printf '%s' \"$CREATED\" | sed 's/.*\"client_id\":\"\\([^\"]*\\)\".*/\\1/')\n"
              + "CLIENT_SECRET=$(printf '%s' \"$CREATED\" | sed 's/.*\"client_secret\":\"\\([^\"]*\\)\".*/\\1/')\n"
              + dpop.block("openssl genpkey -algorithm EC").text()
              + dpop.block("curl -s -D dpop-headers.txt").text()
              + "echo\necho \"nonce $NONCE\"\n";
      ProcessBuilder bash =
          new ProcessBuilder(
                  "bash", "-c", script.replace("127.0.0.1:8080", "127.0.0.1:" + launched.port))
              .redirectErrorStream(true);
      bash.environment().put("ID", id.group(1));
      bash.environment().put("SECRET", secret.group(1));
      Process run = bash.start();
      String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(run.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, run.exitValue(), out);
      assertTrue(out.contains("\"dpop_bound_access_tokens\":true"), out);
      assertTrue(out.contains("{\"error\":\"use_dpop_nonce\""), "the first proof: " + out);
      assertTrue(out.matches("(?s).*\nnonce [A-Za-z0-9_-]{16,}\n.*"), out);
      assertTrue(out.contains("\"token_type\":\"DPoP\""), "the retry: " + out);
    }
  }

  /**
   * Issue 26: with 8 request threads (the fewest the default gives), 32 clients that announce a
   * token request body and stall, and 8 that stall a body nobody reads, take no thread for long:
   * health, the keys and a token still answer, each within a bound that only a blocked service
   * misses (they take milliseconds).
   */
  @Test
  void whenFortySlowBodiesAreOpenOnEightThreadsThenTheServiceStillAnswers() throws Exception {
    List<java.net.Socket> slow = new ArrayList<>();
    try (Launched launched =
        new Launched(freePort(), "--data", data.toString(), "--threads", "8")) {
      assertTrue(launched.awaitListening(), launched.output());
      Matcher secret = SECRET.matcher(launched.output());
      Matcher id = CLIENT_ID.matcher(launched.output());
      assertTrue(secret.find() && id.find(), launched.output());
      for (int i = 0; i < 32; i++) {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", launched.port);
        socket
            .getOutputStream()
            .write(
                ("POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\n"
                        + "Content-Length: 1000\r\n\r\ngrant_type=")
                    .getBytes(StandardCharsets.US_ASCII));
        slow.add(socket);
      }
      // And 8 that send a body no endpoint reads, a byte of it, then stall: answered at once, the
      // rest is not drained on the request thread (maxSwallowSize 0).
      for (int i = 0; i < 8; i++) {
        java.net.Socket socket = new java.net.Socket("127.0.0.1", launched.port);
        socket
            .getOutputStream()
            .write(
                "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\na"
                    .getBytes(StandardCharsets.US_ASCII));
        slow.add(socket);
      }
      HttpClient client = HttpClient.newHttpClient();
      java.time.Duration bound = java.time.Duration.ofSeconds(3);
      String base = "http://127.0.0.1:" + launched.port;
      for (String path : List.of("/health/live", "/api/public-keys")) {
        HttpResponse<String> answer =
            client.send(
                HttpRequest.newBuilder(URI.create(base + path)).timeout(bound).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), path);
      }
      HttpResponse<String> token =
          client.send(
              HttpRequest.newBuilder(URI.create(base + "/oauth/token"))
                  .timeout(bound)
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "grant_type=client_credentials&client_id="
                              + id.group(1)
                              + "&client_secret="
                              + secret.group(1)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, token.statusCode(), token.body());

      // The body deadline (4 s) comes before the connector's read timeout (5 s): a stalled body
      // gets the 400, never a silent close or a 500 incident.
      java.net.Socket first = slow.get(0);
      first.setSoTimeout(15_000);
      String answer = new String(first.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
      assertTrue(answer.contains("request body too slow"), answer);
      assertFalse(launched.output().contains("SocketTimeoutException"), launched.output());
    } finally {
      for (java.net.Socket socket : slow) {
        socket.close();
      }
    }
  }

  /**
   * What Tomcat refuses before the service sees it (a path it will not normalise, a header or
   * request line it cannot read) is answered in SPEC 7.3's JSON shape, not Tomcat's HTML page with
   * its version (stop 49's review: %2F, %5C and %00 got HTML).
   */
  @Test
  void whenTomcatRefusesARequestItselfThenTheAnswerIsJsonWithoutTomcatsPage() throws Exception {
    try (Launched launched = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      List<String> requests =
          List.of(
              "GET /api/%2Fpublic-keys HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
              "GET /api/public-keys%5C HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
              "GET /api/public%00-keys HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
              "GET /%2e%2e/admin/v1/scopes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
              "GET /admin/v1/%2e%2e/%2e%2e/%2e%2e/oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
              "GET /api/public-keys HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n",
              "GET /api/public-keys HTTP/1.1\r\nHost: 127.0.0.1\r\nX: "
                  + "a".repeat(20_000)
                  + "\r\n\r\n",
              "GE\u0001T /api/public-keys HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      for (String request : requests) {
        String answer = raw(launched.port, request);
        String shown = request.length() > 80 ? request.substring(0, 80) : request;
        assertTrue(answer.startsWith("HTTP/1.1 400 "), shown + "\n" + answer);
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        assertTrue(
            answer.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/json"),
            shown + "\n" + answer);
        assertTrue(
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).has("error"), body);
        assertEquals(
            1, new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).size(), body);
        assertFalse(answer.contains("Tomcat") || answer.contains("<html"), answer);
      }
      assertEquals(200, launched.get("/api/public-keys"), "still serving");
    }
  }

  /**
   * A client that sends {@code Expect: 100-continue} waits for the 100 before its body; the service
   * reads every body without blocking, so Tomcat's default (100 on the first blocking read) never
   * sent it, and each POST route left such a client without an answer. Every POST route, each
   * answered 100 at once and then finally, never with a 5xx.
   */
  @Test
  void whenAClientExpects100ContinueThenEveryPostRouteSendsItAndThenItsAnswer() throws Exception {
    try (Launched launched = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      for (String path :
          List.of(
              "/oauth/token",
              "/oauth/introspect",
              "/oauth/revoke",
              "/admin/v1/service-accounts",
              "/admin/v1/signing-keys/rotate",
              "/console/login")) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", launched.port)) {
          socket.setSoTimeout(10_000);
          socket
              .getOutputStream()
              .write(
                  ("POST "
                          + path
                          + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                          + "Content-Type: application/x-www-form-urlencoded\r\n"
                          + "Content-Length: 2\r\nExpect: 100-continue\r\n\r\n")
                      .getBytes(StandardCharsets.ISO_8859_1));
          byte[] interim = new byte[25];
          int read = socket.getInputStream().read(interim);
          assertTrue(
              read > 0
                  && new String(interim, 0, read, StandardCharsets.ISO_8859_1)
                      .startsWith("HTTP/1.1 100"),
              path
                  + ": "
                  + (read > 0
                      ? new String(interim, 0, read, StandardCharsets.ISO_8859_1)
                      : "nothing"));
          socket.getOutputStream().write("a=".getBytes(StandardCharsets.ISO_8859_1));
          String rest =
              new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
          int status =
              Integer.parseInt(rest.substring(rest.indexOf("HTTP/1.1 ") + 9).substring(0, 3));
          assertTrue(status >= 200 && status < 500, path + ": " + rest);
        }
      }
    }
  }

  /** One request as bytes on a new connection; the answer as far as the server closes it. */
  static String raw(int port, String request) throws IOException {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void whenStoppedBySigtermThenTheLinesOfTheStopAreLoggedToTheLast() throws Exception {
    Launched launched = new Launched(freePort(), "--data", data.toString());
    try (launched) {
      assertTrue(launched.awaitListening(), launched.output());
    }
    assertEquals(143, launched.process.exitValue()); // 128 + SIGTERM: stopped by the signal
    String output = launched.output();
    assertTrue(output.contains("Stopping service [Tomcat]"), output);
    assertTrue(output.endsWith("Identity service stopped"), output);
    assertFalse(output.contains("failed to unregister it"), output); // the WAR's JDBC drivers
  }

  /** Issue 26: every start left an identity-tomcat* folder in the temporary folder. */
  @Test
  void whenStoppedThenTomcatsFolderIsGoneAndNoneWasMadeInTheTemporaryFolder(@TempDir Path tmp)
      throws Exception {
    Path tomcat = data.resolve("tomcat");
    try (Launched launched =
        new Launched(List.of("-Djava.io.tmpdir=" + tmp), freePort(), "--data", data.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      assertTrue(Files.isDirectory(tomcat.resolve("webapps")), "Tomcat's base is under the data");
    }
    assertFalse(Files.exists(tomcat), "deleted at stop");
    try (var left = Files.list(tmp)) {
      List<String> names = left.map(Path::getFileName).map(Path::toString).toList();
      assertTrue(
          names.stream().noneMatch(name -> name.startsWith("identity-tomcat")), names.toString());
    }
  }

  @Test
  void whenStartedTwiceOnOneDataFolderThenReadyBothTimesAndTheBootstrapPrintedOnce()
      throws Exception {
    String clientId;
    String secret;
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (Launched first = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(first.awaitListening(), first.output());
      assertEquals(200, first.get("/health/ready"));
      assertTrue(first.output().contains(data + " was rwxr-xr-x"), first.output());
      Matcher printed = SECRET.matcher(first.output());
      assertTrue(printed.find(), first.output());
      secret = printed.group(1);
      Matcher id = CLIENT_ID.matcher(first.output());
      assertTrue(id.find());
      clientId = id.group(1);
      assertTrue(first.output().contains("Generated a new key-encryption key"));
    }
    assertTrue(Files.exists(data.resolve("key-encryption-key")));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));

    try (Launched second = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(second.awaitListening(), second.output());
      assertEquals(200, second.get("/health/ready"));
      assertFalse(second.output().contains("client_secret"), second.output());
      assertFalse(second.output().contains("Generated a new"), second.output());
    }

    String table = accountTable(data);
    assertTrue(table.contains(clientId), table);
    assertFalse(table.contains(secret), "the secret is stored in the database");
  }

  @Test
  void whenAContextFileSetsEntriesThenTheyOverrideTheDefaults() throws Exception {
    int port = freePort();
    Path context = data.resolve("context.xml");
    Files.writeString(
        context,
        "<Context>\n"
            + "  <Environment name=\"identity/issuer\" value=\"http://localhost:"
            + port
            + "\" type=\"java.lang.String\" override=\"false\"/>\n"
            + "</Context>\n");
    try (Launched launched =
        new Launched(port, "--data", data.toString(), "--context", context.toString())) {
      assertTrue(launched.awaitListening(), launched.output());
      assertTrue(launched.output().contains("issuer http://localhost:" + port), launched.output());
    }
  }

  @Test
  void whenASettingIsInvalidThenTheLauncherStopsAndNamesIt() throws Exception {
    assertStopsNaming(
        "identity/signingKeySize",
        "1024",
        "java:comp/env/identity/signingKeySize must be a multiple");
  }

  @Test
  void whenRestartedWithAnotherKeyEncryptionKeyThenTheLauncherStopsAndNamesIt() throws Exception {
    try (Launched first = new Launched(freePort(), "--data", data.toString())) {
      assertTrue(first.awaitListening(), first.output());
      assertEquals(200, first.get("/api/public-keys"));
    }
    assertStopsNaming(
        "identity/keyEncryptionKey",
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
        "java:comp/env/identity/keyEncryptionKey does not decrypt");
  }

  /** With {@code entry} set to {@code value}, the launcher exits non-zero saying {@code why}. */
  void assertStopsNaming(String entry, String value, String why) throws Exception {
    Path context = data.resolve("context.xml");
    Files.writeString(
        context,
        "<Context>\n  <Environment name=\""
            + entry
            + "\" value=\""
            + value
            + "\" type=\"java.lang.String\" override=\"false\"/>\n</Context>\n");
    try (Launched launched =
        new Launched(freePort(), "--data", data.toString(), "--context", context.toString())) {
      assertFalse(launched.awaitListening(), launched.output());
      assertTrue(launched.process.waitFor(60, TimeUnit.SECONDS));
      assertNotEquals(0, launched.process.exitValue());
      assertTrue(launched.output().contains(why), launched.output());
    }
  }

  static String accountTable(Path data) throws SQLException {
    StringBuilder text = new StringBuilder();
    try (Connection connection =
            DriverManager.getConnection("jdbc:h2:file:" + data.resolve("identity"), "sa", "");
        ResultSet rows =
            connection.createStatement().executeQuery("select * from service_account")) {
      int columns = rows.getMetaData().getColumnCount();
      while (rows.next()) {
        for (int i = 1; i <= columns; i++) {
          text.append(rows.getString(i)).append('\n');
        }
      }
    }
    return text.toString();
  }
}
