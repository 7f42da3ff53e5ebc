package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/** Issue 9 item 4: the database goes away and comes back; nodes die by SIGKILL and restart. */
class FaultsIT {
  @TempDir Path folder;

  static String adminSecret(LauncherIT.Launched node) {
    Matcher secret = ClusterIT.SECRET.matcher(node.output());
    assertTrue(secret.find(), node.output());
    return secret.group(1);
  }

  static String adminId(LauncherIT.Launched node) {
    Matcher id = ClusterIT.CLIENT_ID.matcher(node.output());
    assertTrue(id.find(), node.output());
    return id.group(1);
  }

  /**
   * ClusterIT's context, the server reached at {@code port}, connections checked, rate limits in
   * memory.
   */
  static String databaseContext(FreshDatabase database, int port) {
    return ClusterIT.contextXml(database.resourceAttributes(port))
        .replace(
            "closeMethod=\"close\"/>",
            "closeMethod=\"close\" validationQuery=\"select 1\" testOnBorrow=\"true\""
                + " validationQueryTimeout=\"2\"/>")
        .replace(ClusterIT.env("identity/rateLimitStore", "database"), "");
  }

  static Http http(LauncherIT.Launched node) throws Exception {
    return new Http(new URL("http://127.0.0.1:" + node.port + "/"));
  }

  /** The tests of a server database, on each one the build was given (issue 42: MariaDB too). */
  @Nested
  @ParameterizedClass(name = "{0}", allowZeroInvocations = true)
  @MethodSource("dev.platform.identity.db.DatabaseServer#configured")
  class OnEachServer {
    @Parameter DatabaseServer server;

    @Test
    void whenTheDatabaseIsUnreachableThenQuick5xxNotReadyAndItRecoversAlone() throws Exception {
      try (FreshDatabase database = server.create("identity_faults");
          TcpProxy proxy = new TcpProxy(server.port())) {
        Path context = folder.resolve("context.xml");
        Files.writeString(context, databaseContext(database, proxy.port()));
        try (LauncherIT.Launched node =
            new LauncherIT.Launched(
                LauncherIT.freePort(),
                "--data",
                folder.toString(),
                "--context",
                context.toString())) {
          assertTrue(node.awaitListening(), node.output());
          Http http = http(node);
          String id = adminId(node);
          String secret = adminSecret(node);
          assertEquals(200, http.tokenResponse(id, secret).statusCode());

          proxy.cut();
          Instant before = Instant.now();
          HttpResponse<String> failed = http.tokenResponse(id, secret);
          Duration took = Duration.between(before, Instant.now());
          assertTrue(failed.statusCode() >= 500, failed.body());
          JsonNode body = Http.json(failed);
          assertEquals("server_error", body.get("error").asText());
          assertTrue(body.has("error_description"));
          assertTrue(took.compareTo(Duration.ofSeconds(6)) < 0, "answered after " + took);
          System.out.println("FaultsIT: database unreachable, token request answered in " + took);
          assertEquals(503, http.get("/health/ready").statusCode());

          proxy.restore();
          Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
          int status = 0;
          while (status != 200 && Instant.now().isBefore(deadline)) {
            status = http.tokenResponse(id, secret).statusCode();
            if (status != 200) {
              Thread.sleep(250);
            }
          }
          assertEquals(200, status, "the service did not recover by itself");
          System.out.println(
              "FaultsIT: database back, tokens again after "
                  + Duration.between(deadline.minusSeconds(30), Instant.now()));
          // Issue 35: readiness is the background probe's, and stays 503 until 5 s have passed
          // without a failed connection or a timed-out statement.
          Instant readyBy = Instant.now().plus(Duration.ofSeconds(10));
          int ready = http.get("/health/ready").statusCode();
          while (ready != 200 && Instant.now().isBefore(readyBy)) {
            Thread.sleep(250);
            ready = http.get("/health/ready").statusCode();
          }
          assertEquals(200, ready, "readiness did not come back within 10 s");
        }
      }
    }

    @Test
    void whenANodeIsKilledDuringKeyRotationsThenNoKeyIsLostDoubledOrUnreadable() throws Exception {
      try (FreshDatabase database = server.create("identity_kill")) {
        Path context = folder.resolve("context.xml");
        Files.writeString(context, ClusterIT.contextXml(database));
        LauncherIT.Launched first =
            new LauncherIT.Launched(
                LauncherIT.freePort(),
                "--data",
                folder.toString(),
                "--context",
                context.toString());
        assertTrue(first.awaitListening(), first.output());
        String id = adminId(first);
        String secret = adminSecret(first);
        Http http = http(first);
        String admin = http.token(id, secret);
        AtomicBoolean rotating = new AtomicBoolean(true);
        CompletableFuture<Integer> rotations =
            CompletableFuture.supplyAsync(
                () -> {
                  int done = 0;
                  while (rotating.get()) {
                    try {
                      HttpResponse<String> r =
                          ClusterIT.admin(
                              http, "POST", "/signing-keys/rotate?immediate=true", admin, null);
                      done += r.statusCode() == 201 ? 1 : 0;
                    } catch (RuntimeException e) {
                      return done;
                    }
                  }
                  return done;
                });
        while (ClusterIT.admin(http, "GET", "/signing-keys", admin, null)
                .body()
                .split("\"kid\"")
                .length
            < 4) {
          Thread.sleep(20);
        }
        first.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        rotating.set(false);
        rotations.get(30, TimeUnit.SECONDS);

        try (LauncherIT.Launched second =
            new LauncherIT.Launched(
                LauncherIT.freePort(),
                "--data",
                folder.toString(),
                "--context",
                context.toString())) {
          assertTrue(second.awaitListening(), second.output());
          Http again = http(second);
          HttpResponse<String> token = again.tokenResponse(id, secret);
          assertEquals(200, token.statusCode(), "the account survived and a key signs");
          String fresh = Http.json(token).get("access_token").asText();
          JsonNode keys =
              Http.json(ClusterIT.admin(again, "GET", "/signing-keys", fresh, null)).get("items");
          Set<String> kids = new HashSet<>();
          int current = 0;
          for (JsonNode key : keys) {
            assertTrue(kids.add(key.get("kid").asText()), "duplicate kid");
            current += key.get("is_current").asBoolean() ? 1 : 0;
          }
          assertEquals(1, current);
          for (JsonNode jwk : Http.json(again.get("/api/public-keys")).get("keys")) {
            assertEquals(
                200, again.get("/api/public-keys/" + jwk.get("kid").asText()).statusCode());
          }
        }
      }
    }
  }

  @Test
  void whenTheH2DefaultIsKilledUnderLoadThenNothingCommittedIsLost() throws Exception {
    List<String> created = new ArrayList<>();
    String id;
    String secret;
    int port = LauncherIT.freePort();
    LauncherIT.Launched node = new LauncherIT.Launched(port, "--data", folder.toString());
    assertTrue(node.awaitListening(), node.output());
    id = adminId(node);
    secret = adminSecret(node);
    Http http = http(node);
    String admin = http.token(id, secret);
    for (int i = 0; i < 25; i++) {
      HttpResponse<String> response =
          ClusterIT.admin(
              http,
              "POST",
              "/service-accounts",
              admin,
              "{\"name\":\"durable "
                  + i
                  + "\",\"organization_id\":\"org-d\",\"scopes\":[\"catalog:*\"]}");
      assertEquals(201, response.statusCode(), response.body());
      created.add(Http.json(response).get("client_id").asText());
    }
    node.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

    try (LauncherIT.Launched restarted =
        new LauncherIT.Launched(port, "--data", folder.toString())) {
      assertTrue(restarted.awaitListening(), restarted.output());
      Http again = http(restarted);
      String token = again.token(id, secret);
      String listed = ClusterIT.admin(again, "GET", "/service-accounts", token, null).body();
      for (String clientId : created) {
        assertTrue(listed.contains(clientId), "lost " + clientId);
      }
    }
  }
}
