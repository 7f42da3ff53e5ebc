package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 35 over HTTP: a private_key_jwt client whose {@code jwks_uri} host accepts connections and
 * never answers (a TCP listener on 127.0.0.1 that says nothing, so even TLS hangs). Its token
 * requests are refused at once, saying its key set is not yet available, while the one background
 * fetch waits out its deadline; other clients' requests, sent at the same time, are answered as
 * usual. Bounded: 16 requests of each kind, 4 at a time, on loopback; the listener closes at the
 * end.
 */
@ExtendWith(ArquillianExtension.class)
class HangingJwksUriIT {
  static final int REQUESTS = 16;

  /** The fetch's deadline: the old code made the first request wait this long. */
  static final Duration FETCH_DEADLINE = Duration.ofSeconds(3);

  static final String NOT_YET =
      "the client's key set is not yet available from its jwks_uri; retry shortly";

  static ServerSocket silent;
  static final AtomicInteger connections = new AtomicInteger();
  static final List<Socket> held = new CopyOnWriteArrayList<>();

  @Deployment(testable = false)
  static WebArchive deployment() throws IOException {
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              while (!silent.isClosed()) {
                try {
                  held.add(silent.accept());
                  connections.incrementAndGet();
                } catch (IOException e) {
                  return;
                }
              }
            },
            "silent-jwks-uri");
    acceptor.setDaemon(true);
    acceptor.start();
    return Deployments.war(
        "hang-" + UUID.randomUUID(),
        Map.of(
            "identity/allowPrivateJwksUris",
            "true",
            "identity/jwksUriPorts",
            String.valueOf(silent.getLocalPort())));
  }

  @AfterAll
  static void closeListener() throws IOException {
    silent.close();
    for (Socket socket : held) {
      socket.close();
    }
  }

  @ArquillianResource URL base;

  Http http() {
    return new Http(base);
  }

  HttpResponse<String> token(String form, String authorization) {
    HttpRequest.Builder request =
        http()
            .request("/oauth/token")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http().send(request.build());
  }

  static String basic(String id, String secret) {
    String pair = id + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  String admin() {
    HttpResponse<String> answer =
        token(
            "grant_type=client_credentials", basic(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET));
    assertEquals(200, answer.statusCode(), answer.body());
    return Http.json(answer).get("access_token").asText();
  }

  String create(String admin, String keys) {
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                admin,
                "{\"name\":\"signer\",\"organization_id\":\"org-h\",\"scopes\":[\"marketing:*\"],"
                    + "\"token_endpoint_auth_method\":\"private_key_jwt\","
                    + keys
                    + "}");
    assertEquals(201, created.statusCode(), created.body());
    return Http.json(created).get("client_id").asText();
  }

  record Answer(String who, int status, String body, long millis) {}

  @Test
  void whenAJwksUriHostHangsThenItsClientIsRefusedAtOnceAndOthersAreServed() throws Exception {
    String admin = admin();
    ClientKeyPair hanging = ClientKeyPair.ec("h1");
    String hangingId =
        create(admin, "\"jwks_uri\":\"https://127.0.0.1:" + silent.getLocalPort() + "/jwks\"");
    ClientKeyPair registered = ClientKeyPair.ec("r1");
    String registeredId = create(admin, "\"jwks\":" + registered.jwks());
    String audience = Deployments.ISSUER + "/oauth/token";

    ExecutorService callers = Executors.newFixedThreadPool(4);
    List<Future<Answer>> answers = new ArrayList<>();
    try {
      for (int i = 0; i < REQUESTS; i++) {
        answers.add(
            callers.submit(
                () ->
                    timed(
                        "hanging",
                        () ->
                            token(
                                ClientKeyPair.form(hanging.assertion(hangingId, audience)),
                                null))));
        answers.add(
            callers.submit(
                () ->
                    timed(
                        "registered",
                        () ->
                            token(
                                ClientKeyPair.form(registered.assertion(registeredId, audience)),
                                null))));
        answers.add(
            callers.submit(
                () ->
                    timed(
                        "secret",
                        () ->
                            token(
                                "grant_type=client_credentials",
                                basic(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET)))));
      }
      long slowestHanging = 0;
      for (Future<Answer> future : answers) {
        Answer answer = future.get(60, TimeUnit.SECONDS);
        if (answer.who().equals("hanging")) {
          assertEquals(401, answer.status(), answer.body());
          assertTrue(answer.body().contains(NOT_YET), answer.body());
          slowestHanging = Math.max(slowestHanging, answer.millis());
        } else {
          assertEquals(200, answer.status(), answer.who() + ": " + answer.body());
        }
      }
      System.out.println(
          "HangingJwksUriIT: slowest refusal of the hanging client "
              + slowestHanging
              + " ms; connections to the silent host "
              + connections.get());
      assertTrue(
          slowestHanging < FETCH_DEADLINE.toMillis(),
          "no refusal waited for the fetch's deadline: " + slowestHanging + " ms");
      // One fetch in flight per URI: the one the account's creation started, and at most one
      // more once the refetch interval has passed.
      assertTrue(connections.get() <= 2, "fetches of the silent host: " + connections.get());
    } finally {
      callers.shutdownNow();
    }
  }

  private static Answer timed(String who, Supplier<HttpResponse<String>> call) {
    long start = System.nanoTime();
    HttpResponse<String> response = call.get();
    return new Answer(
        who, response.statusCode(), response.body(), (System.nanoTime() - start) / 1_000_000);
  }
}
