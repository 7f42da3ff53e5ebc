package dev.platform.identity.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.tls.TestPki;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
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
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.net.ssl.SSLParameters;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.SSLValve;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: a client certificate reaches a servlet as {@code
 * jakarta.servlet.request.X509Certificate}, over real TLS and through a proxy header, on a Tomcat
 * set up by the launcher's own {@link ClientCertificates}. The servlet echoes the subject.
 */
class ClientCertificatesTest {
  static final TestPki PKI = TestPki.authority("Test CA");
  static final TestPki.Issued SERVER = PKI.server();
  static final String PASSWORD = "s3cret-store";

  @TempDir Path folder;
  Tomcat tomcat;
  final List<LogRecord> gateLog = new ArrayList<>();
  final Logger gateLogger = Logger.getLogger(TrustedProxyHeaders.class.getName());
  final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord entry) {
          synchronized (gateLog) {
            gateLog.add(entry);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  /** Echoes the first certificate's subject, or {@code none}. */
  static final class Echo extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      Object chain = request.getAttribute("jakarta.servlet.request.X509Certificate");
      response.setContentType("text/plain");
      response
          .getWriter()
          .print(
              chain instanceof X509Certificate[] certificates && certificates.length > 0
                  ? certificates[0].getSubjectX500Principal().getName()
                  : "none");
    }
  }

  int start(String... args) throws Exception {
    Options options = Options.parse(args, folder.resolve("identity.war"));
    tomcat = new Tomcat();
    tomcat.setBaseDir(folder.resolve("tomcat").toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    ClientCertificates.configure(tomcat, options);
    Context context = tomcat.addContext("", null);
    Tomcat.addServlet(context, "echo", new Echo());
    context.addServletMappingDecoded("/*", "echo");
    tomcat.start();
    gateLogger.addHandler(handler); // after new Tomcat(), which resets java.util.logging
    return tomcat.getConnector().getLocalPort();
  }

  @AfterEach
  void stop() throws LifecycleException {
    gateLogger.removeHandler(handler);
    if (tomcat != null) {
      tomcat.stop();
      tomcat.destroy();
    }
  }

  String[] tls() throws Exception {
    Path store = folder.resolve("server.p12");
    KeyStore keyStore = SERVER.keyStore("server", PASSWORD.toCharArray());
    try (OutputStream out = Files.newOutputStream(store)) {
      keyStore.store(out, PASSWORD.toCharArray());
    }
    Path password = folder.resolve("password");
    Files.writeString(password, PASSWORD + "\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    return new String[] {
      "--tls-keystore", store.toString(), "--tls-keystore-password-file", password.toString()
    };
  }

  static HttpResponse<String> overTls(int port, TestPki.Issued client) throws Exception {
    return overTls(port, client, "TLSv1.3");
  }

  static HttpResponse<String> overTls(int port, TestPki.Issued client, String protocol)
      throws Exception {
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(TestPki.clientContext(PKI.certificate(), client))
            .sslParameters(new SSLParameters(null, new String[] {protocol}))
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    return http.send(
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/"))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** HTTP/1.1 over a plain socket from {@code local} (JDK 17's HttpClient cannot bind one). */
  static String rawGet(String local, int port, String... headers) throws IOException {
    StringBuilder head = new StringBuilder("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  static String pem(X509Certificate certificate) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  /** As nginx's {@code $ssl_client_escaped_cert}: the PEM, URL-encoded. */
  static String escaped(X509Certificate certificate) throws Exception {
    return URLEncoder.encode(pem(certificate), StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String body(String answer) {
    return answer.substring(answer.indexOf("\r\n\r\n") + 4);
  }

  @Test
  void whenATlsClientPresentsACaIssuedCertificateThenTheServletSeesIt() throws Exception {
    int port = start(tls());

    HttpResponse<String> response = overTls(port, PKI.client("CN=orders,O=Kitchen"));

    assertEquals(200, response.statusCode());
    assertEquals("CN=orders,O=Kitchen", response.body());
  }

  @Test
  void whenATlsClientPresentsASelfSignedCertificateThenItStillReachesTheServlet() throws Exception {
    int port = start(tls());

    HttpResponse<String> response = overTls(port, TestPki.selfSigned("CN=self,O=Kitchen"));

    assertEquals(200, response.statusCode());
    assertEquals("CN=self,O=Kitchen", response.body());
  }

  @Test
  void whenTheClientSpeaksTls12ThenASelfSignedCertificateReachesTheServletToo() throws Exception {
    int port = start(tls());

    HttpResponse<String> response =
        overTls(port, TestPki.selfSigned("CN=self12,O=Kitchen"), "TLSv1.2");

    assertEquals("CN=self12,O=Kitchen", response.body());
  }

  /**
   * A TLS 1.2 client that renegotiates on one connection, presenting {@code first} in the first
   * handshake and {@code second} in the next, then asks the echo servlet who it is on that same
   * connection.
   *
   * @return the echo's answer, or the exception the renegotiation or the request met
   */
  static String afterRenegotiation(int port, TestPki.Issued first, TestPki.Issued second)
      throws Exception {
    javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLSv1.2");
    javax.net.ssl.KeyManagerFactory firstKeys = keyManagers(first);
    javax.net.ssl.KeyManagerFactory secondKeys = keyManagers(second);
    java.util.concurrent.atomic.AtomicBoolean renegotiated =
        new java.util.concurrent.atomic.AtomicBoolean();
    javax.net.ssl.X509KeyManager a = (javax.net.ssl.X509KeyManager) firstKeys.getKeyManagers()[0];
    javax.net.ssl.X509KeyManager b = (javax.net.ssl.X509KeyManager) secondKeys.getKeyManagers()[0];
    javax.net.ssl.X509KeyManager switching =
        new javax.net.ssl.X509ExtendedKeyManager() {
          javax.net.ssl.X509KeyManager now() {
            return renegotiated.get() ? b : a;
          }

          @Override
          public String[] getClientAliases(String type, java.security.Principal[] issuers) {
            return now().getClientAliases(type, issuers);
          }

          @Override
          public String chooseClientAlias(
              String[] types, java.security.Principal[] issuers, Socket socket) {
            return now().chooseClientAlias(types, issuers, socket);
          }

          @Override
          public String[] getServerAliases(String type, java.security.Principal[] issuers) {
            return null;
          }

          @Override
          public String chooseServerAlias(
              String type, java.security.Principal[] issuers, Socket socket) {
            return null;
          }

          @Override
          public X509Certificate[] getCertificateChain(String alias) {
            return now().getCertificateChain(alias);
          }

          @Override
          public java.security.PrivateKey getPrivateKey(String alias) {
            return now().getPrivateKey(alias);
          }
        };
    javax.net.ssl.TrustManagerFactory trust =
        javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    trust.init(TestPki.trustStore(PKI.certificate()));
    context.init(
        new javax.net.ssl.KeyManager[] {switching},
        trust.getTrustManagers(),
        new java.security.SecureRandom());
    try (javax.net.ssl.SSLSocket socket =
        (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      socket.setEnabledProtocols(new String[] {"TLSv1.2"});
      socket.startHandshake();
      // One request on the first handshake's certificate, kept alive.
      socket
          .getOutputStream()
          .write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String before = readAnswer(socket);
      renegotiated.set(true);
      try {
        socket.getSession().invalidate();
        socket.startHandshake();
        socket
            .getOutputStream()
            .write(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        return before
            + " then "
            + body(new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1));
      } catch (IOException e) {
        return before + " then " + e.getClass().getSimpleName();
      }
    }
  }

  private static javax.net.ssl.KeyManagerFactory keyManagers(TestPki.Issued client)
      throws Exception {
    char[] password = "test".toCharArray();
    javax.net.ssl.KeyManagerFactory keys =
        javax.net.ssl.KeyManagerFactory.getInstance(
            javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
    keys.init(client.keyStore("client", password), password);
    return keys;
  }

  /** One HTTP/1.1 answer with a Content-Length body, read off a kept-alive connection. */
  private static String readAnswer(Socket socket) throws IOException {
    java.io.InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed in the head: " + head);
      }
      head.append((char) c);
    }
    java.util.regex.Matcher length =
        java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
    int size = length.find() ? Integer.parseInt(length.group(1)) : 0;
    return new String(in.readNBytes(size), StandardCharsets.ISO_8859_1);
  }

  @Test
  void whenATls12ClientRenegotiatesWithAnotherCertificateThenTheFirstIsNeverSeenAfterIt()
      throws Exception {
    int port = start(tls());

    String seen =
        afterRenegotiation(
            port, PKI.client("CN=first,O=Kitchen"), PKI.client("CN=second,O=Kitchen"));

    // Either the renegotiation is refused (what JDK 17's JSSE does here: SSLProtocolException), or
    // the request after it carries the new handshake's certificate: never the first one.
    assertTrue(seen.startsWith("CN=first,O=Kitchen then "), seen);
    assertFalse(seen.endsWith("CN=first,O=Kitchen"), seen);
  }

  @Test
  void whenTheClientOffersOnlyTls11ThenTheHandshakeFails() throws Exception {
    int port = start(tls());

    assertThrows(IOException.class, () -> overTls(port, null, "TLSv1.1"));
  }

  @Test
  void whenATlsClientPresentsNoCertificateThenItIsServedWithoutOne() throws Exception {
    int port = start(tls());

    HttpResponse<String> response = overTls(port, null);

    assertEquals(200, response.statusCode());
    assertEquals("none", response.body());
  }

  @Test
  void whenPlainHttpReachesTheTlsPortThenTheServletIsNotReached() throws Exception {
    int port = start(tls());

    String answer = rawGet("127.0.0.1", port);

    assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
    assertTrue(answer.contains("requires TLS"), answer);
  }

  @Test
  void whenATrustedProxySendsTheCertificateHeaderThenTheServletSeesIt() throws Exception {
    int port = start("--trusted-proxy", "127\\.0\\.0\\.1");
    X509Certificate certificate = PKI.client("CN=orders,O=Kitchen").certificate();

    String plain =
        rawGet("127.0.0.1", port, "ssl_client_cert: " + pem(certificate).replace('\n', ' '));
    String nginx = rawGet("127.0.0.1", port, "ssl_client_escaped_cert: " + escaped(certificate));

    assertEquals("CN=orders,O=Kitchen", body(plain), plain);
    assertEquals("CN=orders,O=Kitchen", body(nginx), nginx);
    assertTrue(gateLog.isEmpty(), gateLog.toString());
  }

  @Test
  void whenAnotherAddressSendsTheHeaderThenItIsIgnoredAndLoggedWithoutTheCertificate()
      throws Exception {
    int port = start("--trusted-proxy", "127\\.0\\.0\\.1");
    X509Certificate certificate = PKI.client("CN=forged,O=Elsewhere").certificate();
    String header = "ssl_client_escaped_cert: " + escaped(certificate);

    String first = rawGet("127.0.0.2", port, header);
    String second = rawGet("127.0.0.2", port, header);

    assertTrue(first.startsWith("HTTP/1.1 200"), first);
    assertEquals("none", body(first));
    assertEquals("none", body(second));
    assertEquals(1, gateLog.size(), gateLog.toString()); // once a minute per address
    String message = gateLog.get(0).getMessage();
    assertTrue(message.contains("127.0.0.2"), message);
    assertFalse(message.contains("forged") || message.contains("BEGIN"), message);
  }

  @Test
  void whenATrustedProxySendsGarbageThenNoCertificateAndNoServerError() throws Exception {
    int port = start("--trusted-proxy", "127\\.0\\.0\\.1");

    String answer =
        rawGet(
            "127.0.0.1",
            port,
            "ssl_client_cert: -----BEGIN CERTIFICATE----- bm90IGEgY2VydA== -----END CERTIFICATE-----");

    assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
    assertEquals("none", body(answer));
  }

  @Test
  void whenNoProxyIsTrustedThenTheHeaderMeansNothing() throws Exception {
    int port = start();
    X509Certificate certificate = PKI.client("CN=forged,O=Elsewhere").certificate();

    String answer = rawGet("127.0.0.1", port, "ssl_client_escaped_cert: " + escaped(certificate));

    assertNotEquals("CN=forged,O=Elsewhere", body(answer));
    assertEquals("none", body(answer));
  }

  /** A header never replaces the certificate a client presented over the launcher's own TLS. */
  @Test
  void whenATlsClientAlsoSendsTheHeaderFromATrustedAddressThenItsOwnCertificateStands()
      throws Exception {
    List<String> args = new ArrayList<>(List.of(tls()));
    args.addAll(List.of("--trusted-proxy", "127\\.0\\.0\\.1"));
    int port = start(args.toArray(String[]::new));
    TestPki.Issued own = PKI.client("CN=own,O=Kitchen");
    X509Certificate named = PKI.client("CN=victim,O=Kitchen").certificate();
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(TestPki.clientContext(PKI.certificate(), own))
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/"))
                .header("ssl_client_escaped_cert", escaped(named))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertEquals("CN=own,O=Kitchen", answer.body());
  }

  /** An SSLValve renamed in server.xml is gated under its own header names. */
  @Test
  void whenTheSslValveReadsAnotherHeaderThenTheGateRemovesThatOneFromOthers() throws Exception {
    tomcat = new Tomcat();
    tomcat.setBaseDir(folder.resolve("tomcat").toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    TrustedProxyHeaders gate = new TrustedProxyHeaders();
    gate.setTrustedProxies("127\\.0\\.0\\.1");
    SSLValve renamed = new SSLValve();
    renamed.setSslClientEscapedCertHeader("x-client-cert");
    tomcat.getEngine().getPipeline().addValve(gate);
    tomcat.getEngine().getPipeline().addValve(renamed);
    Context context = tomcat.addContext("", null);
    Tomcat.addServlet(context, "echo", new Echo());
    context.addServletMappingDecoded("/*", "echo");
    tomcat.start();
    int port = tomcat.getConnector().getLocalPort();
    X509Certificate certificate = PKI.client("CN=forged,O=Elsewhere").certificate();
    String header = "x-client-cert: " + escaped(certificate);

    assertEquals("none", body(rawGet("127.0.0.2", port, header)));
    assertEquals("CN=forged,O=Elsewhere", body(rawGet("127.0.0.1", port, header)));
  }

  /** An SSLValve that runs before the gate would believe anyone: the start fails, naming why. */
  @Test
  void whenAnSslValveComesBeforeTheGateThenTomcatDoesNotStart() {
    tomcat = new Tomcat();
    tomcat.setBaseDir(folder.resolve("tomcat").toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    TrustedProxyHeaders gate = new TrustedProxyHeaders();
    gate.setTrustedProxies("127\\.0\\.0\\.1");
    tomcat.getEngine().getPipeline().addValve(new SSLValve());
    tomcat.getEngine().getPipeline().addValve(gate);
    tomcat.addContext("", null);

    LifecycleException refused = assertThrows(LifecycleException.class, tomcat::start);

    String causes = causes(refused);
    assertTrue(causes.contains("Put TrustedProxyHeaders first"), causes);
  }

  static String causes(Throwable thrown) {
    StringBuilder all = new StringBuilder();
    for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
      all.append(cause.getMessage()).append(" / ");
    }
    return all.toString();
  }
}
