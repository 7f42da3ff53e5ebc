package dev.platform.identity.tls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Issue 39: token requests per server CPU-second over plain HTTP and over TLS, by a secret and by a
 * self-signed client certificate. Not a test: {@code bench/tls.sh} runs it against the launcher.
 *
 * <p>{@code pki DIR}: writes a test CA's server key store for 127.0.0.1 ({@code server.p12}, its
 * password in the owner-only {@code server.p12.password}), the CA ({@code ca.pem}) and a
 * self-signed client certificate with its key ({@code client.p12}, {@code client.p12.password}).
 *
 * <p>{@code load PKI_DIR CONNS DURATION WARMUP JIT_WARMUP QUIET_MAX CLK_TCK ROUNDS BASE LOG PID
 * [BASE LOG PID] -- PHASE...}: one launcher per scheme (http, https) at BASE, its output in LOG,
 * its JVM's PID. For each it reads the bootstrap administrator from LOG (never from the command
 * line) and creates through {@code /admin/v1} a client_secret_basic client and, on https, a
 * self_signed_tls_client_auth client whose JWK carries the certificate, and checks one token of
 * each phase. It then runs JIT_WARMUP s of each launcher's first phase (discarded) and, ROUNDS
 * times, every PHASE in turn: waits at most QUIET_MAX s for an idle machine, runs WARMUP s
 * (discarded) and DURATION s measured on CONNS connections to 127.0.0.1, one thread each, sending
 * {@code POST /oauth/token} and reading each answer before the next. The server's CPU is its PID's
 * utime+stime from {@code /proc/PID/stat}, read just before and after the measured run; this
 * process's own CPU and the rest of the machine's (from {@code /proc/stat}, the other launcher
 * included) are reported apart, never counted as the server's. Prints one markdown row per phase
 * and round.
 *
 * <p>Phases, SCHEME:KIND: {@code http:secret}, {@code https:secret} (client_secret_basic,
 * kept-alive connections), {@code https:certificate} (self_signed_tls_client_auth, kept-alive),
 * {@code https:ca-certificate} (tls_client_auth: a certificate of the bench CA, whose path the
 * service builds on every request), {@code https:secret-new}, {@code https:certificate-new} and
 * {@code https:ca-certificate-new} (a new connection per request, {@code Connection: close}, and a
 * new client TLS context for each, so every request pays a full handshake, never a resumed one). On
 * kept-alive connections the launcher closes each after 100 requests ({@code
 * maxKeepAliveRequests}); it is then opened again with the same TLS context, which may resume the
 * session, as a client library does.
 */
public final class TlsTokenBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ADMIN_ID = Pattern.compile("client_id:\\s+(\\S+)");
  private static final Pattern ADMIN_SECRET = Pattern.compile("client_secret:\\s+(\\S+)");

  /** The subject of the CA-issued client certificate, which its tls_client_auth account names. */
  private static final String CA_CLIENT_DN = "CN=bench-ca-client,O=Bench";

  private static final String SCOPES = "[\"catalog:products.view\",\"catalog:categories.view\"]";

  private TlsTokenBenchmark() {}

  public static void main(String[] args) throws Exception {
    switch (args.length == 0 ? "" : args[0]) {
      case "pki" -> pki(Path.of(args[1]));
      case "load" -> {
        Settings settings =
            new Settings(
                Path.of(args[1]),
                Integer.parseInt(args[2]),
                Integer.parseInt(args[3]),
                Integer.parseInt(args[4]),
                Integer.parseInt(args[5]),
                Integer.parseInt(args[6]),
                Integer.parseInt(args[7]),
                Integer.parseInt(args[8]));
        List<String> rest = List.of(Arrays.copyOfRange(args, 9, args.length));
        int dashes = rest.indexOf("--");
        if (dashes < 0 || dashes % 3 != 0) {
          throw new IllegalArgumentException("BASE LOG PID triples, then --, then the phases");
        }
        List<Server> servers = new ArrayList<>();
        for (int i = 0; i < dashes; i += 3) {
          servers.add(
              new Server(
                  URI.create(rest.get(i)),
                  Path.of(rest.get(i + 1)),
                  Long.parseLong(rest.get(i + 2))));
        }
        load(settings, servers, rest.subList(dashes + 1, rest.size()));
      }
      default -> {
        System.err.println("usage: pki DIR");
        System.err.println(
            "       load PKI_DIR CONNS DURATION WARMUP JIT_WARMUP QUIET_MAX CLK_TCK ROUNDS"
                + " BASE LOG PID [BASE LOG PID] -- PHASE...");
        System.err.println(
            "       phases: http:secret https:secret https:certificate https:ca-certificate"
                + " https:secret-new https:certificate-new https:ca-certificate-new");
        System.exit(2);
      }
    }
  }

  record Settings(
      Path pki,
      int conns,
      int duration,
      int warmup,
      int jitWarmup,
      int quietMax,
      int clockTicks,
      int rounds) {}

  /** A launcher: where it listens, its output (the bootstrap administrator), its JVM. */
  record Server(URI base, Path log, long pid) {
    boolean tls() {
      return "https".equals(base.getScheme());
    }
  }

  // --- pki ----------------------------------------------------------------------------------

  private static void pki(Path dir) throws Exception {
    TestPki authority = TestPki.authority("Bench TLS CA");
    char[] serverPassword = secretFile(dir.resolve("server.p12.password"));
    try (OutputStream out = Files.newOutputStream(ownerOnly(dir.resolve("server.p12")))) {
      authority.server().keyStore("server", serverPassword).store(out, serverPassword);
    }
    char[] clientPassword = secretFile(dir.resolve("client.p12.password"));
    try (OutputStream out = Files.newOutputStream(ownerOnly(dir.resolve("client.p12")))) {
      TestPki.selfSigned("CN=bench-client")
          .keyStore("client", clientPassword)
          .store(out, clientPassword);
    }
    char[] caClientPassword = secretFile(dir.resolve("ca-client.p12.password"));
    try (OutputStream out = Files.newOutputStream(ownerOnly(dir.resolve("ca-client.p12")))) {
      authority
          .client(CA_CLIENT_DN)
          .keyStore("client", caClientPassword)
          .store(out, caClientPassword);
    }
    Files.writeString(
        dir.resolve("ca.pem"),
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(authority.certificate().getEncoded())
            + "\n-----END CERTIFICATE-----\n");
  }

  private static Path ownerOnly(Path file) throws IOException {
    return Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
  }

  private static char[] secretFile(Path file) throws IOException {
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    Files.writeString(ownerOnly(file), password + "\n");
    return password.toCharArray();
  }

  private static char[] readSecret(Path file) throws IOException {
    return Files.readAllLines(file).get(0).strip().toCharArray();
  }

  // --- load ---------------------------------------------------------------------------------

  /** What a worker needs to open a connection and send one token request. */
  record Target(
      String label, Server server, String method, Tls tls, boolean newPerRequest, byte[] request) {
    /** Whether the client proves itself by its certificate, and its tokens are bound. */
    boolean certificate() {
      return !method.equals("client_secret_basic");
    }

    String host() {
      return server.base().getHost();
    }

    int port() {
      return server.base().getPort();
    }
  }

  /** A client's TLS material; {@code freshContext} gives a new context (no session to resume). */
  record Tls(KeyManager[] keys, TrustManager[] trust, SSLContext shared) {
    SSLSocketFactory factory(boolean freshContext) {
      if (!freshContext) {
        return shared.getSocketFactory();
      }
      try {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, trust, null);
        return context.getSocketFactory();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    static Tls of(KeyStore clientKeys, char[] password, X509Certificate authority)
        throws GeneralSecurityException {
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(clientKeys, password);
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(TestPki.trustStore(authority));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
      return new Tls(keys.getKeyManagers(), trust.getTrustManagers(), context);
    }
  }

  /** A server's clients, as request headers and body parts. */
  record Clients(String secretBasic, String certificateId, String caCertificateId) {}

  private static void load(Settings settings, List<Server> servers, List<String> phases)
      throws Exception {
    Tls anonymous = null;
    Tls certified = null;
    Tls caCertified = null;
    X509Certificate clientCertificate = null;
    if (servers.stream().anyMatch(Server::tls)) {
      X509Certificate authority;
      try (InputStream in = Files.newInputStream(settings.pki().resolve("ca.pem"))) {
        authority =
            (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
      }
      char[] password = readSecret(settings.pki().resolve("client.p12.password"));
      KeyStore clientKeys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(settings.pki().resolve("client.p12"))) {
        clientKeys.load(in, password);
      }
      clientCertificate = (X509Certificate) clientKeys.getCertificate("client");
      anonymous = Tls.of(null, null, authority);
      certified = Tls.of(clientKeys, password, authority);
      char[] caPassword = readSecret(settings.pki().resolve("ca-client.p12.password"));
      KeyStore caClientKeys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(settings.pki().resolve("ca-client.p12"))) {
        caClientKeys.load(in, caPassword);
      }
      caCertified = Tls.of(caClientKeys, caPassword, authority);
    }
    java.util.Map<String, Server> byScheme = new java.util.LinkedHashMap<>();
    java.util.Map<Server, Clients> clients = new java.util.HashMap<>();
    for (Server server : servers) {
      String comm = Files.readString(Path.of("/proc/" + server.pid() + "/comm")).strip();
      if (!"java".equals(comm)) {
        throw new IllegalStateException("PID " + server.pid() + " is " + comm + ", not a JVM");
      }
      if (!"127.0.0.1".equals(server.base().getHost())) {
        throw new IllegalArgumentException("loopback only: " + server.base());
      }
      byScheme.put(server.base().getScheme(), server);
      clients.put(server, register(server, server.tls() ? anonymous : null, clientCertificate));
    }

    List<Target> targets = new ArrayList<>();
    for (String phase : phases) {
      String[] parts = phase.split(":", 2);
      Server server = byScheme.get(parts[0]);
      if (server == null || parts.length < 2) {
        throw new IllegalArgumentException(phase + ": no launcher of that scheme");
      }
      String kind = parts[1];
      boolean fresh = kind.endsWith("-new");
      String connection = fresh ? "Connection: close\r\n" : "";
      Clients client = clients.get(server);
      String host = server.base().getHost();
      int port = server.base().getPort();
      targets.add(
          switch (kind) {
            case "secret", "secret-new" ->
                new Target(
                    phase,
                    server,
                    "client_secret_basic",
                    server.tls() ? anonymous : null,
                    fresh,
                    request(
                        host,
                        port,
                        "Authorization: " + client.secretBasic() + "\r\n" + connection,
                        "grant_type=client_credentials"));
            case "certificate", "certificate-new" -> {
              if (!server.tls()) {
                throw new IllegalArgumentException(phase + " needs an https launcher");
              }
              yield new Target(
                  phase,
                  server,
                  "self_signed_tls_client_auth",
                  certified,
                  fresh,
                  request(
                      host,
                      port,
                      connection,
                      "grant_type=client_credentials&client_id=" + form(client.certificateId())));
            }
            case "ca-certificate", "ca-certificate-new" -> {
              if (!server.tls()) {
                throw new IllegalArgumentException(phase + " needs an https launcher");
              }
              yield new Target(
                  phase,
                  server,
                  "tls_client_auth",
                  caCertified,
                  fresh,
                  request(
                      host,
                      port,
                      connection,
                      "grant_type=client_credentials&client_id=" + form(client.caCertificateId())));
            }
            default -> throw new IllegalArgumentException("unknown phase " + phase);
          });
    }
    // One token per target through the load generator's own connection code, checked.
    for (Target target : targets) {
      try (Connection connection = Connection.open(target, true)) {
        Answer answer = connection.exchange(target.request(), true);
        if (answer.status() != 200) {
          throw new IllegalStateException(
              target.label() + ": " + answer.status() + " " + new String(answer.body()));
        }
        String jwt = JSON.readTree(answer.body()).path("access_token").asText();
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
        boolean bound = claims.path("cnf").has("x5t#S256");
        if (bound != target.certificate()) {
          throw new IllegalStateException(target.label() + ": cnf.x5t#S256 " + bound);
        }
        System.out.printf(
            "# %s: one token checked (%s, %s, %d characters, certificate-bound: %s)%n",
            target.label(), connection.protocol(), connection.cipherSuite(), jwt.length(), bound);
      }
    }
    System.out.println(
        "| round | transport | client | connection | conns | s | requests | non-200 | errors"
            + " | req/s | p50 / p99 ms | connections opened | server CPU-s"
            + " | req per server CPU-s | load generator cores | other cores | machine busy |");
    System.out.println(
        "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|");
    if (settings.jitWarmup() > 0) {
      for (Server server : servers) {
        Target first = targets.stream().filter(t -> t.server() == server).findFirst().orElse(null);
        if (first != null) {
          System.err.printf(
              "JIT warm-up %d s (%s, discarded)%n", settings.jitWarmup(), first.label());
          run(first, settings.conns(), settings.jitWarmup());
        }
      }
    }
    for (int round = 1; round <= settings.rounds(); round++) {
      for (Target target : targets) {
        waitQuiet(settings.quietMax());
        System.err.printf(
            "round %d, %s: warm-up %d s (discarded)%n", round, target.label(), settings.warmup());
        run(target, settings.conns(), settings.warmup());
        Thread.sleep(1000);
        System.err.printf(
            "round %d, %s: measured %d s%n", round, target.label(), settings.duration());
        Ticks before = Ticks.read(target.server().pid());
        Result result = run(target, settings.conns(), settings.duration());
        Ticks after = Ticks.read(target.server().pid());
        System.out.println(row(settings, round, target, result, before, after));
        Thread.sleep(2000);
      }
    }
  }

  /** The server's two clients, made through /admin/v1 by its bootstrap administrator. */
  private static Clients register(Server server, Tls tls, X509Certificate certificate)
      throws Exception {
    String log = Files.readString(server.log());
    Matcher adminId = ADMIN_ID.matcher(log);
    Matcher adminSecret = ADMIN_SECRET.matcher(log);
    if (!adminId.find() || !adminSecret.find()) {
      throw new IllegalStateException("no bootstrap administrator in " + server.log());
    }
    HttpClient http =
        (tls == null ? HttpClient.newBuilder() : HttpClient.newBuilder().sslContext(tls.shared()))
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    URI base = server.base();
    String adminBearer =
        "Bearer "
            + JSON.readTree(
                    send(
                        http,
                        base.resolve("/oauth/token"),
                        "application/x-www-form-urlencoded",
                        basic(adminId.group(1), adminSecret.group(1)),
                        "grant_type=client_credentials",
                        200))
                .path("access_token")
                .asText();
    JsonNode secretClient =
        JSON.readTree(
            send(
                http,
                base.resolve("/admin/v1/service-accounts"),
                "application/json",
                adminBearer,
                "{\"name\":\"bench-secret\",\"organization_id\":\"bench\",\"scopes\":"
                    + SCOPES
                    + "}",
                201));
    String secretBasic =
        basic(secretClient.path("client_id").asText(), secretClient.path("client_secret").asText());
    if (!server.tls()) {
      return new Clients(secretBasic, null, null);
    }
    String jwks =
        "{\"keys\":["
            + new ECKey.Builder(Curve.P_256, (ECPublicKey) certificate.getPublicKey())
                .keyID("tls")
                .x509CertChain(
                    List.of(com.nimbusds.jose.util.Base64.encode(certificate.getEncoded())))
                .build()
                .toJSONString()
            + "]}";
    String certificateId =
        JSON.readTree(
                send(
                    http,
                    base.resolve("/admin/v1/service-accounts"),
                    "application/json",
                    adminBearer,
                    "{\"name\":\"bench-certificate\",\"organization_id\":\"bench\",\"scopes\":"
                        + SCOPES
                        + ",\"token_endpoint_auth_method\":\"self_signed_tls_client_auth\","
                        + "\"jwks\":"
                        + jwks
                        + "}",
                    201))
            .path("client_id")
            .asText();
    String caCertificateId =
        JSON.readTree(
                send(
                    http,
                    base.resolve("/admin/v1/service-accounts"),
                    "application/json",
                    adminBearer,
                    "{\"name\":\"bench-ca-certificate\",\"organization_id\":\"bench\",\"scopes\":"
                        + SCOPES
                        + ",\"token_endpoint_auth_method\":\"tls_client_auth\","
                        + "\"tls_client_auth_subject_dn\":\""
                        + CA_CLIENT_DN
                        + "\"}",
                    201))
            .path("client_id")
            .asText();
    return new Clients(secretBasic, certificateId, caCertificateId);
  }

  private static String row(
      Settings settings, int round, Target target, Result result, Ticks before, Ticks after) {
    double hz = settings.clockTicks();
    double seconds = result.nanos() / 1e9;
    double server = (after.server() - before.server()) / hz;
    double self = (after.self() - before.self()) / hz;
    long total = after.machineTotal() - before.machineTotal();
    long idle = after.machineIdle() - before.machineIdle();
    int cpus = Runtime.getRuntime().availableProcessors();
    double busyCores = total == 0 ? 0 : (double) (total - idle) / total * cpus;
    long[] latencies = result.latencies();
    Arrays.sort(latencies);
    return String.format(
        Locale.ROOT,
        "| %d | %s | %s | %s | %d | %.1f | %d | %d | %d | %.0f | %.2f / %.2f | %d | %.2f | %.0f"
            + " | %.2f | %.2f | %.2f/%d |",
        round,
        target.server().tls() ? "TLS" : "plain HTTP",
        target.method(),
        target.newPerRequest() ? "new per request, full handshake" : "kept alive",
        settings.conns(),
        seconds,
        result.requests(),
        result.non200(),
        result.errors(),
        result.requests() / seconds,
        percentile(latencies, 0.50) / 1e6,
        percentile(latencies, 0.99) / 1e6,
        result.connections(),
        server,
        server > 0 ? result.requests() / server : 0,
        self / seconds,
        busyCores - server / seconds - self / seconds,
        busyCores,
        cpus);
  }

  private static long percentile(long[] sorted, double p) {
    return sorted.length == 0
        ? 0
        : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  }

  /** Waits at most {@code max} seconds until the machine has been under 8 % busy for 5 s. */
  private static void waitQuiet(int max) throws Exception {
    for (int waited = 0; waited < max; waited += 5) {
      Ticks a = Ticks.read(ProcessHandle.current().pid());
      Thread.sleep(5000);
      Ticks b = Ticks.read(ProcessHandle.current().pid());
      long total = b.machineTotal() - a.machineTotal();
      if (total > 0 && (double) (total - (b.machineIdle() - a.machineIdle())) / total < 0.08) {
        return;
      }
    }
    if (max > 0) {
      System.err.printf(
          "machine not quiet after %d s (load %s); measuring anyway%n",
          max, Files.readString(Path.of("/proc/loadavg")).strip());
    }
  }

  /** CPU ticks of the server, of this process, and of the whole machine (busy and idle). */
  record Ticks(long server, long self, long machineTotal, long machineIdle) {
    static Ticks read(long pid) throws IOException {
      long total = 0;
      long idle = 0;
      for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
        if (line.startsWith("cpu ")) {
          String[] fields = line.trim().split("\\s+");
          for (int i = 1; i < fields.length; i++) {
            total += Long.parseLong(fields[i]);
          }
          idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
          break;
        }
      }
      return new Ticks(processTicks(pid), processTicks(ProcessHandle.current().pid()), total, idle);
    }

    /** utime + stime of every thread of the process, from after the command name. */
    static long processTicks(long pid) throws IOException {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 and 15
    }
  }

  record Result(
      long nanos, long requests, long non200, long errors, long connections, long[] latencies) {}

  /** Runs {@code conns} workers on {@code target} for {@code seconds}; each stops by itself. */
  private static Result run(Target target, int conns, int seconds) throws InterruptedException {
    Worker[] workers = new Worker[conns];
    long start = System.nanoTime();
    long end = start + seconds * 1_000_000_000L;
    for (int i = 0; i < conns; i++) {
      workers[i] = new Worker(target, end);
      workers[i].start();
    }
    for (Worker worker : workers) {
      worker.join();
    }
    long nanos = System.nanoTime() - start;
    long requests = 0;
    long non200 = 0;
    long errors = 0;
    long connections = 0;
    int n = 0;
    for (Worker worker : workers) {
      requests += worker.requests;
      non200 += worker.non200;
      errors += worker.errors;
      connections += worker.connections;
      n += worker.count;
    }
    long[] latencies = new long[n];
    int at = 0;
    for (Worker worker : workers) {
      System.arraycopy(worker.latencies, 0, latencies, at, worker.count);
      at += worker.count;
    }
    return new Result(nanos, requests, non200, errors, connections, latencies);
  }

  /** One connection at a time, one request at a time, until the end. */
  private static final class Worker extends Thread {
    private final Target target;
    private final long end;
    long requests;
    long non200;
    long errors;
    long connections;
    long[] latencies = new long[1 << 14];
    int count;

    Worker(Target target, long end) {
      super("load-" + target.label());
      this.target = target;
      this.end = end;
    }

    @Override
    public void run() {
      Connection connection = null;
      while (System.nanoTime() < end) {
        long started = System.nanoTime();
        try {
          if (connection == null) {
            connection = Connection.open(target, target.newPerRequest());
            connections++;
          }
          Answer answer = connection.exchange(target.request(), false);
          record(System.nanoTime() - started);
          requests++;
          if (answer.status() != 200) {
            non200++;
            if (non200 <= 3) {
              System.err.println(
                  target.label()
                      + ": "
                      + answer.status()
                      + " "
                      + new String(answer.body(), StandardCharsets.UTF_8));
            }
          }
          if (target.newPerRequest() || !answer.keepAlive()) {
            connection.close();
            connection = null;
          }
        } catch (IOException | RuntimeException e) {
          errors++;
          if (errors <= 3) {
            System.err.println(target.label() + ": " + e);
          }
          if (connection != null) {
            connection.close();
            connection = null;
          }
        }
      }
      if (connection != null) {
        connection.close();
      }
    }

    private void record(long nanos) {
      if (count == latencies.length) {
        latencies = Arrays.copyOf(latencies, count * 2);
      }
      latencies[count++] = nanos;
    }
  }

  record Answer(int status, boolean keepAlive, byte[] body) {}

  /** One HTTP/1.1 connection to 127.0.0.1, over TLS when the target has a client TLS context. */
  private static final class Connection implements Closeable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
      this.out = new BufferedOutputStream(socket.getOutputStream(), 4 * 1024);
    }

    static Connection open(Target target, boolean freshContext) throws IOException {
      Socket plain = new Socket();
      try {
        plain.setTcpNoDelay(true);
        plain.setSoTimeout(10_000);
        plain.connect(new InetSocketAddress(target.host(), target.port()), 5_000);
        if (target.tls() == null) {
          return new Connection(plain);
        }
        SSLSocket tls =
            (SSLSocket)
                target
                    .tls()
                    .factory(freshContext)
                    .createSocket(plain, target.host(), target.port(), true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return new Connection(tls);
      } catch (IOException | RuntimeException e) {
        plain.close();
        throw e;
      }
    }

    String protocol() {
      return socket instanceof SSLSocket tls ? tls.getSession().getProtocol() : "plain";
    }

    String cipherSuite() {
      return socket instanceof SSLSocket tls ? tls.getSession().getCipherSuite() : "-";
    }

    Answer exchange(byte[] request, boolean keepBody) throws IOException {
      out.write(request);
      out.flush();
      String status = line();
      if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
        throw new IOException("not an HTTP/1.1 status line: " + status);
      }
      int code = Integer.parseInt(status.substring(9, 12));
      long length = -1;
      boolean chunked = false;
      boolean keepAlive = true;
      for (String header = line(); !header.isEmpty(); header = line()) {
        int colon = header.indexOf(':');
        if (colon < 0) {
          continue;
        }
        String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
        switch (name) {
          case "content-length" -> length = Long.parseLong(value);
          case "transfer-encoding" -> chunked = value.contains("chunked");
          case "connection" -> keepAlive = !value.contains("close");
          default -> {}
        }
      }
      ByteArrayOutputStream body = keepBody ? new ByteArrayOutputStream() : null;
      if (chunked) {
        for (long size = Long.parseLong(line().split(";")[0].trim(), 16);
            size > 0;
            size = Long.parseLong(line().split(";")[0].trim(), 16)) {
          read(size, body);
          line();
        }
        for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
          // trailers: none expected
        }
      } else if (length >= 0) {
        read(length, body);
      } else {
        keepAlive = false; // read to the end: not expected from Tomcat
        read(Long.MAX_VALUE, body);
      }
      return new Answer(code, keepAlive, body == null ? new byte[0] : body.toByteArray());
    }

    private void read(long length, ByteArrayOutputStream body) throws IOException {
      byte[] buffer = new byte[4096];
      long left = length;
      while (left > 0) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          if (length == Long.MAX_VALUE) {
            return;
          }
          throw new EOFException("the body ended early");
        }
        if (body != null) {
          body.write(buffer, 0, n);
        }
        left -= n;
      }
    }

    private String line() throws IOException {
      StringBuilder line = new StringBuilder(64);
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new EOFException("the connection closed");
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }

    @Override
    public void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // closing: nothing to do
      }
    }
  }

  private static byte[] request(String host, int port, String headers, String body) {
    return ("POST /oauth/token HTTP/1.1\r\n"
            + "Host: "
            + host
            + ":"
            + port
            + "\r\n"
            + headers
            + "Content-Type: application/x-www-form-urlencoded\r\n"
            + "Accept: application/json\r\n"
            + "Content-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length
            + "\r\n\r\n"
            + body)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String send(
      HttpClient http, URI uri, String type, String authorization, String body, int expected)
      throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", type)
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != expected) {
      throw new IllegalStateException(
          uri + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** RFC 6749 §2.3.1: each part form-encoded, then base64. */
  private static String basic(String id, String secret) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((form(id) + ":" + form(secret)).getBytes(StandardCharsets.UTF_8));
  }

  private static String form(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
