package dev.platform.identity.it;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 35: the front door, on every route the service has ({@link Routes}: the OpenAPI document's
 * and the console's, none listed by hand). A body longer than its route takes, or any body on a
 * route that takes none, is refused before the client has sent it, and the connection closed; a
 * body that does not come is cut at the deadline. (The share of threads per address is the chaos
 * suite's: {@code PipeliningChaosIT}.)
 */
@ExtendWith(ArquillianExtension.class)
class FrontDoorIT {
  /** The routes that take a body, as the front door's table says; every other takes none. */
  static final Set<String> BODY_PREFIXES =
      Set.of("/oauth/token", "/oauth/revoke", "/oauth/introspect", "/admin/v1/", "/console/");

  /** The form endpoints of SPEC 7.1's shape, where every refusal is a 400 invalid_request. */
  static final Set<String> OAUTH_FORMS =
      Set.of("/oauth/token", "/oauth/revoke", "/oauth/introspect");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  final List<Socket> opened = new ArrayList<>();

  @AfterEach
  void close() throws IOException {
    for (Socket socket : opened) {
      socket.close();
    }
  }

  List<Routes.Route> routes() {
    Http http = new Http(base);
    String openapi = http.send(http.request("/openapi.json").GET().build()).body();
    List<Routes.Route> routes = Routes.all(openapi);
    assertTrue(routes.size() > 30, "routes found: " + routes);
    return routes;
  }

  static boolean takesBody(Routes.Route route) {
    return Set.of("POST", "PUT", "PATCH").contains(route.method())
        && BODY_PREFIXES.stream().anyMatch(route.path()::startsWith);
  }

  Socket open(InetAddress from) throws IOException {
    URI uri = URI.create(base.toString());
    Socket socket = new Socket();
    // A small window, as a client that reads nothing soon has: the server's writes then wait for
    // it after a few kilobytes rather than after the megabytes loopback buffers take.
    socket.setReceiveBufferSize(4096);
    socket.bind(new InetSocketAddress(from, 0));
    socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()));
    opened.add(socket);
    return socket;
  }

  Socket open() throws IOException {
    return open(InetAddress.getByName("127.0.0.1"));
  }

  static String head(Routes.Route route, String... headers) {
    StringBuilder head =
        new StringBuilder(route.method() + " " + route.path() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    return head.append("\r\n").toString();
  }

  /** Everything the server sends until it closes; a timeout fails the caller's assertion. */
  static String answer(Socket socket, int timeoutMillis) throws IOException {
    socket.setSoTimeout(timeoutMillis);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        bytes.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      return bytes.toString(ISO_8859_1) + "\n(no end within " + timeoutMillis + " ms)";
    }
    return bytes.toString(ISO_8859_1);
  }

  static void assertRefused(Routes.Route route, String answer, int status) {
    int expected = OAUTH_FORMS.stream().anyMatch(route.path()::startsWith) ? 400 : status;
    assertTrue(answer.startsWith("HTTP/1.1 " + expected + " "), route + ": " + answer);
    assertTrue(
        answer.toLowerCase(Locale.ROOT).contains("connection: close"), route + ": " + answer);
    assertFalse(answer.contains("(no end within"), route + ": " + answer);
  }

  @Test
  void whenAnyRouteIsSentA100MegabyteDeclaredBodyThenItIsRefusedBeforeAByteIsSent()
      throws IOException {
    for (Routes.Route route : routes()) {
      Socket socket = open();
      socket
          .getOutputStream()
          .write(
              head(route, "Content-Type: application/json", "Content-Length: 104857600")
                  .getBytes(ISO_8859_1));

      assertRefused(route, answer(socket, 3_000), 413);
    }
  }

  @Test
  void whenARouteThatTakesNoBodyIsSentAChunkedOneThenItIsRefusedUnread() throws IOException {
    for (Routes.Route route : routes()) {
      if (takesBody(route)) {
        continue;
      }
      Socket socket = open();
      OutputStream out = socket.getOutputStream();
      out.write(head(route, "Transfer-Encoding: chunked").getBytes(ISO_8859_1));
      out.write("10\r\n0123456789abcdef\r\n".getBytes(ISO_8859_1)); // and no last chunk

      String answer = answer(socket, 3_000);

      assertRefused(route, answer, 413);
      assertTrue(answer.contains("takes no body"), route + ": " + answer);
    }
  }

  @Test
  void whenARouteThatTakesABodyIsSentAChunkedOnePastItsCapThenItIsRefused() throws IOException {
    byte[] chunk = ("10000\r\n" + "x".repeat(0x10000) + "\r\n").getBytes(ISO_8859_1);
    for (Routes.Route route : routes()) {
      if (!takesBody(route)) {
        continue;
      }
      Socket socket = open();
      ByteArrayOutputStream request = new ByteArrayOutputStream();
      request.write(head(route, "Transfer-Encoding: chunked").getBytes(ISO_8859_1));
      request.write(chunk);
      request.write(chunk); // 128 KiB, past every cap, and no last chunk
      try {
        socket.getOutputStream().write(request.toByteArray());
      } catch (SocketException e) {
        // The service answered and closed once past the cap, while the rest was being written;
        // its answer is read below all the same.
      }

      String answer = answer(socket, 3_000);

      assertRefused(route, answer, 413);
      assertTrue(answer.contains("larger than"), route + ": " + answer);
    }
  }

  @Test
  void whenNoRouteThatTakesABodyIsSentItThenEachIsCutAtTheDeadline() throws Exception {
    List<CompletableFuture<String>> answers = new ArrayList<>();
    List<Routes.Route> bodyRoutes = routes().stream().filter(FrontDoorIT::takesBody).toList();
    for (Routes.Route route : bodyRoutes) {
      Socket socket = open();
      socket
          .getOutputStream()
          .write(
              head(route, "Content-Type: application/json", "Content-Length: 100")
                  .getBytes(ISO_8859_1));
      answers.add(CompletableFuture.supplyAsync(() -> answerOrThrow(socket)));
    }
    for (int i = 0; i < bodyRoutes.size(); i++) {
      String answer = answers.get(i).get();
      assertRefused(bodyRoutes.get(i), answer, 400);
      assertTrue(answer.contains("request body too slow"), bodyRoutes.get(i) + ": " + answer);
    }
  }

  static String answerOrThrow(Socket socket) {
    try {
      return answer(socket, 9_000);
    } catch (IOException e) {
      return "(failed: " + e + ")";
    }
  }
}
