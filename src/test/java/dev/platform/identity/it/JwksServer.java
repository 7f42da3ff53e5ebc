package dev.platform.identity.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A hostile {@code jwks_uri} host on 127.0.0.1 for the chaos suite (issue 35), as {@code
 * token/HttpsStub} makes one: paths under {@code /hang} accept and never answer, those under {@code
 * /trickle} promise a key set and send it a byte every half second. Its certificate is self-signed
 * for IP 127.0.0.1 (keytool), and {@link #trustStore} is the file a launcher's JVM is told to
 * trust.
 */
final class JwksServer implements AutoCloseable {
  private static final String PASSWORD = "chaos-jwks";

  private final HttpsServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final AtomicInteger requests = new AtomicInteger();
  final Path trustStore;

  private JwksServer(Path folder) throws IOException, GeneralSecurityException {
    Path keys = folder.resolve("jwks-server.p12");
    Path certificate = folder.resolve("jwks-server.crt");
    trustStore = folder.resolve("jwks-trust.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "jwks",
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
        keys.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-alias",
        "jwks",
        "-keystore",
        keys.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "jwks",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        PASSWORD);
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = java.nio.file.Files.newInputStream(keys)) {
      store.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(factory.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  static JwksServer start(Path folder) throws IOException, GeneralSecurityException {
    return new JwksServer(folder);
  }

  /** The launcher's JVM options that make it trust this server. */
  List<String> jvmOptions() {
    return List.of(
        "-Djavax.net.ssl.trustStore=" + trustStore,
        "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
        "-Djavax.net.ssl.trustStoreType=PKCS12");
  }

  URI uri(String path) {
    return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  int requests() {
    return requests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    try (exchange) {
      if (exchange.getRequestURI().getPath().startsWith("/trickle")) {
        exchange.sendResponseHeaders(200, 100_000);
        OutputStream body = exchange.getResponseBody();
        byte[] start = "{\"keys\":[".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; closed.getCount() > 0 && i < 60; i++) {
          body.write(i < start.length ? start[i] : ' ');
          body.flush();
          await(500);
        }
      } else {
        await(30_000);
      }
    } catch (IOException e) {
      // the service gave up on us: as intended
    }
  }

  private void await(long millis) {
    try {
      closed.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void keytool(String... arguments) throws IOException {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
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
    server.stop(0);
    threads.shutdownNow();
  }
}
