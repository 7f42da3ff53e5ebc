package dev.platform.identity.it;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26: clients that announce a token request body and never send it hold no request thread,
 * and are cut at the body deadline with 400 {@code invalid_request}. Before the fix every slow
 * socket held a thread until the connector's own timeout, and none got an answer in time.
 */
@ExtendWith(ArquillianExtension.class)
class SlowBodyIT {
  static final int SLOW_SOCKETS = 32;

  /** Generous, so that only a blocked service fails it: a normal answer takes milliseconds. */
  static final Duration ANSWER_BOUND = Duration.ofSeconds(3);

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war();
  }

  @ArquillianResource URL base;

  final List<Socket> slow = new ArrayList<>();

  @AfterEach
  void close() throws IOException {
    for (Socket socket : slow) {
      socket.close();
    }
  }

  /** Headers announcing 1000 bytes, then 11 of them, then nothing. */
  Socket openSlow() throws IOException {
    URI uri = URI.create(base.toString());
    Socket socket = new Socket(uri.getHost(), uri.getPort());
    String head =
        "POST /oauth/token HTTP/1.1\r\nHost: "
            + uri.getHost()
            + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
            + "grant_type=";
    socket.getOutputStream().write(head.getBytes(ISO_8859_1));
    socket.getOutputStream().flush();
    slow.add(socket);
    return socket;
  }

  HttpResponse<String> token() {
    String form =
        "grant_type=client_credentials&client_id="
            + Deployments.ADMIN_ID
            + "&client_secret="
            + URLEncoder.encode(Deployments.ADMIN_SECRET, UTF_8);
    Http http = new Http(base);
    return http.send(
        http.request("/oauth/token")
            .timeout(ANSWER_BOUND)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build());
  }

  HttpResponse<String> live() {
    Http http = new Http(base);
    return http.send(http.request("/health/live").timeout(ANSWER_BOUND).GET().build());
  }

  @Test
  void whenManySlowBodiesAreOpenThenTokensAndHealthStillAnswer() throws IOException {
    for (int i = 0; i < SLOW_SOCKETS; i++) {
      openSlow();
    }

    assertEquals(200, token().statusCode());
    assertEquals(200, live().statusCode());
  }

  @Test
  void whenABodyIsTooSlowThenItIsCutWith400AndTheConnectionCloses() throws IOException {
    Socket socket = openSlow();
    // The deadline is 4 s; the read timeout bounds the wait should no answer ever come.
    socket.setSoTimeout(7_000);

    String answer = new String(socket.getInputStream().readAllBytes(), ISO_8859_1);

    assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
    assertTrue(answer.contains("\"error\":\"invalid_request\""), answer);
    assertTrue(answer.contains("request body too slow"), answer);
    assertTrue(answer.toLowerCase().contains("cache-control: no-store"), answer);
    assertTrue(answer.toLowerCase().contains("connection: close"), answer);
  }
}
