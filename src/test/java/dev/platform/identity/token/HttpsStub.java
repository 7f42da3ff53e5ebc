package dev.platform.identity.token;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A stub HTTPS server on 127.0.0.1 for the {@code jwks_uri} fetch: each path gets an {@link Answer}
 * (whole, or stalling until the stub closes), requests are counted per path and can be held until
 * the test releases them. Its certificate is self-signed for IP 127.0.0.1, made once per run with
 * the JDK's {@code keytool}; {@link #client()} trusts it and follows no redirect.
 */
final class HttpsStub implements AutoCloseable {
  private static final char[] PASSWORD = "stub-secret".toCharArray();
  private static KeyStore keyStore;

  private final HttpsServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile CountDownLatch hold = new CountDownLatch(0);
  private volatile CountDownLatch arrived = new CountDownLatch(0);

  /** What a path answers; runs on a server thread. */
  @FunctionalInterface
  interface Answer {
    void answer(HttpExchange exchange, CountDownLatch closed) throws IOException;
  }

  private HttpsStub() throws IOException, GeneralSecurityException {
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverContext()));
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  static HttpsStub start() throws IOException, GeneralSecurityException {
    return new HttpsStub();
  }

  /** A whole answer, with headers given as name, value, name, value. */
  static Answer whole(int status, String body, String... headers) {
    return (exchange, closed) -> {
      for (int i = 0; i < headers.length; i += 2) {
        exchange.getResponseHeaders().add(headers[i], headers[i + 1]);
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    };
  }

  /** Status and headers promising a body of 1000 bytes, ten of them, then silence. */
  static Answer headersThenStall() {
    return (exchange, closed) -> {
      exchange.sendResponseHeaders(200, 1000);
      OutputStream body = exchange.getResponseBody();
      body.write("{\"keys\":[".getBytes(StandardCharsets.UTF_8));
      body.flush();
      await(closed);
    };
  }

  /** No answer at all until the stub closes. */
  static Answer silence() {
    return (exchange, closed) -> await(closed);
  }

  /** From now on, {@code path} answers with {@code answer}. */
  void answer(String path, Answer answer) {
    answers.put(path, answer);
  }

  int port() {
    return server.getAddress().getPort();
  }

  URI uri(String path) {
    return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** The requests for {@code path} so far. */
  int requests(String path) {
    return requests.computeIfAbsent(path, p -> new AtomicInteger()).get();
  }

  /** From now on, requests wait at the stub (ten seconds at most) until {@link #release}. */
  void hold() {
    arrived = new CountDownLatch(1);
    hold = new CountDownLatch(1);
  }

  /** Whether a request arrived, since {@link #hold}, within {@code timeout}. */
  boolean awaitArrival(Duration timeout) throws InterruptedException {
    return arrived.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  void release() {
    hold.countDown();
  }

  /** An HTTP client that trusts this stub's certificate, with a 2 s connect timeout. */
  static HttpClient client() {
    try {
      KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("stub", keyStore().getCertificate("stub"));
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return HttpClient.newBuilder()
          .sslContext(context)
          .connectTimeout(Duration.ofSeconds(2))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("the stub's trust store", e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    try (InputStream body = exchange.getRequestBody()) {
      body.readAllBytes();
    }
    arrived.countDown();
    await(hold);
    answers.getOrDefault(path, whole(404, "")).answer(exchange, closed);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static SSLContext serverContext() throws IOException, GeneralSecurityException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(keyStore(), PASSWORD);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  /** The self-signed key pair, made by keytool into a temporary folder on first use. */
  private static synchronized KeyStore keyStore() throws IOException, GeneralSecurityException {
    if (keyStore == null) {
      Path folder = Files.createTempDirectory("https-stub");
      Path file = folder.resolve("stub.p12");
      keytool(file);
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(file)) {
        store.load(in, PASSWORD);
      }
      Files.delete(file);
      Files.delete(folder);
      keyStore = store;
    }
    return keyStore;
  }

  private static void keytool(Path file) throws IOException {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "stub",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "san=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                file.toString(),
                "-storepass",
                new String(PASSWORD),
                "-keypass",
                new String(PASSWORD))
            .redirectErrorStream(true)
            .start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("keytool failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroy();
      throw new IOException("interrupted while keytool ran", e);
    }
  }

  @Override
  public void close() {
    closed.countDown();
    release();
    server.stop(0);
    threads.shutdownNow();
  }
}
