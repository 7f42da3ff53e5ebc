package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The service under attack (issue 35): the launcher in its own process with the heap the benchmark
 * documents ({@code -Xmx256m}), H2 in its data folder unless a context file says otherwise, its
 * bootstrap administrator's printed credentials, accounts made through the administration API from
 * the probe's address, and the figures the attacks are judged by (heap, audit log). Stopped by its
 * PID.
 */
final class ChaosTarget implements AutoCloseable {
  static final List<String> JVM = List.of("-Xmx256m");

  /**
   * {@code true} runs the launcher with {@code --virtual-threads} (issue 41): the same attacks
   * against Tomcat's virtual-thread executor, on a Java 21+ {@code identity.server.java.home}.
   */
  static final String VIRTUAL_THREADS = "identity.chaos.virtualThreads";

  private static final Duration SETUP = Duration.ofSeconds(20);
  private static final Pattern HEAP_USED = Pattern.compile("total \\d+K, used (\\d+)K");
  private static final ObjectMapper JSON = new ObjectMapper();

  final LauncherIT.Launched launched;
  final Path data;
  final BoundHttp probeHttp;
  final String adminId;
  final String adminSecret;
  private String adminToken;

  /** A client's credentials. */
  record Account(String clientId, String secret) {
    String form() {
      return "grant_type=client_credentials&client_id="
          + clientId
          + "&client_secret="
          + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    }
  }

  private ChaosTarget(LauncherIT.Launched launched, Path data) {
    this.launched = launched;
    this.data = data;
    this.probeHttp = new BoundHttp(BoundHttp.PROBE_ADDRESS, launched.port);
    Matcher id = LauncherIT.CLIENT_ID.matcher(launched.output());
    Matcher secret = LauncherIT.SECRET.matcher(launched.output());
    assertTrue(id.find() && secret.find(), launched.output());
    this.adminId = id.group(1);
    this.adminSecret = secret.group(1);
  }

  /** Starts the launcher on {@code data} (and {@code context}, when not null) and waits for it. */
  static ChaosTarget start(Path data, Path context, String... jvm) throws Exception {
    List<String> options = new ArrayList<>(JVM);
    options.addAll(List.of(jvm));
    List<String> arguments = new ArrayList<>(List.of("--data", data.toString()));
    if (Boolean.getBoolean(VIRTUAL_THREADS)) {
      arguments.add("--virtual-threads");
    }
    if (context != null) {
      arguments.addAll(List.of("--context", context.toString()));
    }
    LauncherIT.Launched launched =
        new LauncherIT.Launched(options, LauncherIT.freePort(), arguments.toArray(String[]::new));
    try {
      // Up to 4.5 minutes: on a loaded machine the first start (migrations) takes minutes.
      boolean listening = launched.awaitListening();
      for (int i = 0; i < 2 && !listening && launched.process.isAlive(); i++) {
        listening = launched.awaitListening();
      }
      assertTrue(listening, launched.output());
      return new ChaosTarget(launched, data);
    } catch (RuntimeException | AssertionError e) {
      launched.close();
      throw e;
    }
  }

  int port() {
    return launched.port;
  }

  long pid() {
    return launched.process.pid();
  }

  Account admin() {
    return new Account(adminId, adminSecret);
  }

  /** A token of {@code account}, asked for from the probe's address. */
  String token(Account account) {
    BoundHttp.Exchange answer = probeHttp.postForm("/oauth/token", account.form(), SETUP);
    assertEquals(200, answer.status(), answer.toString());
    return json(answer.body()).get("access_token").asText();
  }

  /**
   * The bootstrap administrator's token, asked for once (its budget is 60 tokens a minute, and a
   * class makes more accounts than that).
   */
  synchronized String adminToken() {
    if (adminToken == null) {
      adminToken = token(admin());
    }
    return adminToken;
  }

  /** A new account named {@code name} (scope {@code catalog:*}), made by the bootstrap admin. */
  Account account(String name) {
    return accountFrom(
        "{\"name\":\"" + name + "\",\"organization_id\":\"org-chaos\",\"scopes\":[\"catalog:*\"]}");
  }

  /** A new account from a whole creation request (JSON); its secret if it has one. */
  Account accountFrom(String json) {
    BoundHttp.Exchange created =
        probeHttp.postJson(
            "/admin/v1/service-accounts", json, SETUP, "Authorization: Bearer " + token(admin()));
    assertEquals(201, created.status(), created.toString());
    JsonNode body = json(created.body());
    return new Account(
        body.get("client_id").asText(),
        body.has("client_secret") ? body.get("client_secret").asText() : null);
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + text, e);
    }
  }

  /** Every route the suite attacks, the API's read from this service's {@code /openapi.json}. */
  List<ChaosRoutes.Route> routes() {
    BoundHttp.Exchange document = probeHttp.get("/openapi.json", SETUP);
    assertEquals(200, document.status(), document.toString());
    return ChaosRoutes.all(json(document.body()));
  }

  /**
   * Warms the service's code paths up from the probe's address (a fresh JVM compiles as it goes),
   * so the first attack's figures are the attack's.
   */
  void warmUp() {
    Account warm = account("chaos-warm-up");
    for (int i = 0; i < 200; i++) {
      probeHttp.get("/api/public-keys", SETUP);
      probeHttp.get("/health/live", SETUP);
      if (i % 5 == 0) {
        probeHttp.postForm("/oauth/token", warm.form(), SETUP);
      }
    }
  }

  /** Whether the process lives and {@code /health/live} answers 200 within 5 s. */
  boolean answers() {
    return launched.process.isAlive()
        && probeHttp.get("/health/live", Duration.ofSeconds(5)).status() == 200;
  }

  /** Waits (10 s at most) for the service to answer again after an attack; says whether it did. */
  boolean awaitAnswering() throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < end) {
      if (answers()) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  /** Heap in use after a full collection, in MiB, read with {@code jcmd PID GC.heap_info}. */
  long heapUsedMiB() throws IOException, InterruptedException {
    jcmd("GC.run");
    Matcher used = HEAP_USED.matcher(jcmd("GC.heap_info"));
    if (!used.find()) {
      return -1;
    }
    return Long.parseLong(used.group(1)) / 1024;
  }

  private String jcmd(String command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(
                ServerProcess.javaHome().resolve("bin").resolve("jcmd").toString(),
                Long.toString(pid()),
                command)
            .redirectErrorStream(true)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    return out;
  }

  /**
   * Bytes of audit log so far: the files named {@code audit*} in the data folder if the launcher
   * writes one, else the audit logger's lines in its output (the launcher logs to its console).
   */
  long auditBytes() throws IOException {
    try (Stream<Path> files = Files.list(data)) {
      List<Path> audit =
          files.filter(file -> file.getFileName().toString().startsWith("audit")).toList();
      if (!audit.isEmpty()) {
        long bytes = 0;
        for (Path file : audit) {
          bytes += Files.size(file);
        }
        return bytes;
      }
    }
    return launched
        .output()
        .lines()
        .filter(line -> line.contains("[" + dev.platform.identity.audit.AuditLog.LOGGER + "]"))
        .mapToLong(line -> line.getBytes(StandardCharsets.UTF_8).length + 1L)
        .sum();
  }

  /** How many times the process has logged an {@code OutOfMemoryError} so far. */
  long outOfMemoryErrors() {
    return launched.output().lines().filter(line -> line.contains("OutOfMemoryError")).count();
  }

  @Override
  public void close() throws InterruptedException {
    launched.close();
  }
}
