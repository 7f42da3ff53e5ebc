package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.db.DatabaseServer;
import dev.platform.identity.db.FreshDatabase;
import dev.platform.identity.verify.BearerVerifier;
import dev.platform.identity.verify.RemotePublicKeys;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two nodes (two launchers on two loopback ports) on one fresh database with the database
 * rate-limit store, started at the same moment on the empty database (issue 9 item 3): on each
 * database server the build was given (PostgreSQL, and MariaDB since issue 42).
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.platform.identity.db.DatabaseServer#configured")
class ClusterIT {
  static final Pattern SECRET = Pattern.compile("client_secret: (\\S+)");
  static final Pattern CLIENT_ID = Pattern.compile("client_id: +(\\S+)");

  @Parameter DatabaseServer server;
  @TempDir Path folder;
  FreshDatabase database;
  LauncherIT.Launched nodeA;
  LauncherIT.Launched nodeB;
  Http a;
  Http b;
  String adminId;
  String adminSecret;

  @BeforeEach
  void startTwoNodesAtOnce() throws Exception {
    database = server.create("identity_cluster");
    Path context = folder.resolve("context.xml");
    Files.writeString(context, contextXml(database));
    int portA = LauncherIT.freePort();
    int portB = LauncherIT.freePort();
    nodeA =
        new LauncherIT.Launched(
            portA, "--data", folder.resolve("a").toString(), "--context", context.toString());
    nodeB =
        new LauncherIT.Launched(
            portB, "--data", folder.resolve("b").toString(), "--context", context.toString());
    assertTrue(nodeA.awaitListening(), nodeA.output());
    assertTrue(nodeB.awaitListening(), nodeB.output());
    a = new Http(new URL("http://127.0.0.1:" + portA + "/"));
    b = new Http(new URL("http://127.0.0.1:" + portB + "/"));
    String printed = nodeA.output() + "\n" + nodeB.output();
    Matcher secret = SECRET.matcher(printed);
    assertTrue(secret.find(), printed);
    adminSecret = secret.group(1);
    assertTrue(!secret.find(), "the bootstrap administrator was generated twice");
    Matcher id = CLIENT_ID.matcher(printed);
    assertTrue(id.find());
    adminId = id.group(1);
  }

  @AfterEach
  void stop() throws Exception {
    if (nodeA != null) {
      nodeA.close();
    }
    if (nodeB != null) {
      nodeB.close();
    }
    if (database != null) {
      database.close();
    }
  }

  /** The nodes' context.xml on {@code database}, its server at its own port. */
  static String contextXml(FreshDatabase database) {
    return contextXml(database.resourceAttributes());
  }

  /** The same, the Resource's driver, URL and user being {@code resourceAttributes}. */
  static String contextXml(String resourceAttributes) {
    return "<Context>\n"
        + "  <Resource name=\"jdbc/identity\" auth=\"Container\" type=\"javax.sql.DataSource\" "
        + resourceAttributes
        + " maxTotal=\"10\" maxWaitMillis=\"5000\""
        + " closeMethod=\"close\"/>\n"
        + env("identity/issuer", "http://127.0.0.1")
        + env("identity/keyEncryptionKey", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        + env("identity/secretPepper", "ZXhhbXBsZS1wZXBwZXItZm9yLXRlc3RzLW9ubHktMzJieXRlcw==")
        + env("identity/rateLimitStore", "database")
        + env("identity/keyRingRefresh", "PT1S")
        + "</Context>\n";
  }

  static String env(String name, String value) {
    return "  <Environment name=\""
        + name
        + "\" value=\""
        + value
        + "\" type=\"java.lang.String\" override=\"false\"/>\n";
  }

  static HttpResponse<String> admin(
      Http node, String method, String path, String token, String json) {
    return node.admin(method, path, token, json);
  }

  String adminToken(Http node) {
    return node.token(adminId, adminSecret);
  }

  String[] createAccount(String adminToken) {
    HttpResponse<String> created =
        admin(
            a,
            "POST",
            "/service-accounts",
            adminToken,
            "{\"name\":\"cluster\",\"organization_id\":\"org-c\",\"scopes\":[\"catalog:*\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new String[] {body.get("client_id").asText(), body.get("client_secret").asText()};
  }

  /**
   * Issue 38: a token revoked on one node is refused by the other's administration API within its
   * revocation refresh (1 s), and both serve the same feed.
   */
  @Test
  void whenATokenIsRevokedOnOneNodeThenTheOtherRefusesItWithinItsRefresh() throws Exception {
    String adminA = adminToken(a);
    String[] second = createAdmin(adminA);
    String token = a.token(second[0], second[1]);
    assertEquals(200, admin(b, "GET", "/service-accounts", token, null).statusCode());

    HttpResponse<String> revoked =
        a.send(
            a.request("/oauth/revoke")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "client_id="
                            + second[0]
                            + "&client_secret="
                            + second[1]
                            + "&token="
                            + token))
                .build());
    assertEquals(200, revoked.statusCode(), revoked.body());

    Instant deadline = Instant.now().plusSeconds(5);
    int status = 200;
    while (status == 200 && Instant.now().isBefore(deadline)) {
      status = admin(b, "GET", "/service-accounts", token, null).statusCode();
      if (status == 200) {
        Thread.sleep(100); // polls another process: its refresh runs on its own clock
      }
    }
    assertEquals(401, status, "node B still takes the token revoked on node A");
    assertEquals(
        a.get("/oauth/revocations").headers().firstValue("ETag"),
        b.get("/oauth/revocations").headers().firstValue("ETag"));
  }

  String[] createAdmin(String adminToken) {
    HttpResponse<String> created =
        admin(
            a,
            "POST",
            "/service-accounts",
            adminToken,
            "{\"name\":\"second\",\"organization_id\":\"root\",\"scopes\":[\"identity:admin\"]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new String[] {body.get("client_id").asText(), body.get("client_secret").asText()};
  }

  @Test
  void whenTwoNodesShareOneDatabaseThenTheyActAsOne() throws Exception {
    assertEquals(1, Http.json(a.get("/api/public-keys")).get("keys").size());
    assertEquals(a.get("/api/public-keys").body(), b.get("/api/public-keys").body());
    String adminA = adminToken(a);

    String[] account = createAccount(adminA);
    assertEquals(200, b.tokenResponse(account[0], account[1]).statusCode());
    admin(a, "POST", "/service-accounts/" + account[0] + "/deactivate", adminA, null);
    HttpResponse<String> refused = b.tokenResponse(account[0], account[1]);
    assertEquals(401, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("revoked"));

    String[] shared = createAccount(adminA);
    Instant start = Instant.now();
    int admitted = 0;
    for (int i = 0; i < 70; i++) {
      admitted +=
          (i % 2 == 0 ? a : b).tokenResponse(shared[0], shared[1]).statusCode() == 200 ? 1 : 0;
    }
    // The bucket refills one token a second after its burst of 60 (docs/rate-limits.md).
    long refilled = Duration.between(start, Instant.now()).toSeconds() + 1;
    assertTrue(
        admitted >= 60 && admitted <= 60 + refilled,
        admitted + " tokens in " + refilled + " s: the 60-a-minute budget is shared by both nodes");

    HttpResponse<String> rotated =
        admin(a, "POST", "/signing-keys/rotate?immediate=true", adminA, null);
    assertEquals(201, rotated.statusCode(), rotated.body());
    String newKid = Http.json(rotated).get("kid").asText();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (!b.get("/api/public-keys").body().contains(newKid) && Instant.now().isBefore(deadline)) {
      Thread.sleep(200);
    }
    assertTrue(b.get("/api/public-keys").body().contains(newKid), "node B lists the new key");

    for (Http signer : List.of(a, b)) {
      String token = adminToken(signer);
      for (Http keys : List.of(a, b)) {
        BearerVerifier verifier =
            BearerVerifier.builder()
                .issuer("http://127.0.0.1")
                .keyLocator(
                    RemotePublicKeys.builder().issuer(URI.create(keys.uri("/").toString())).build())
                .build();
        assertEquals(adminId, verifier.verify("Bearer " + token, List.of()).clientId());
      }
    }
  }

  /**
   * Issue 22: the jti of an assertion is taken once across the fleet. The same assertion, sent to
   * both nodes at the same moment, gets exactly one token; the other node answers that its jti was
   * already used.
   */
  @Test
  void whenOneAssertionIsSentToBothNodesThenExactlyOneGetsAToken() throws Exception {
    ClientKeyPair key = ClientKeyPair.ec("cluster");
    HttpResponse<String> created =
        admin(
            a,
            "POST",
            "/service-accounts",
            adminToken(a),
            "{\"name\":\"signer\",\"organization_id\":\"org-c\",\"scopes\":[\"catalog:*\"],"
                + "\"token_endpoint_auth_method\":\"private_key_jwt\",\"jwks\":"
                + key.jwks()
                + "}");
    assertEquals(201, created.statusCode(), created.body());
    String id = Http.json(created).get("client_id").asText();
    String form = ClientKeyPair.form(key.assertion(id, "http://127.0.0.1/oauth/token"));
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<HttpResponse<String>>> answers =
        List.of(a, b).stream()
            .map(
                node ->
                    CompletableFuture.supplyAsync(
                        () -> {
                          try {
                            start.await();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          return node.send(
                              node.request("/oauth/token")
                                  .header("Content-Type", "application/x-www-form-urlencoded")
                                  .POST(HttpRequest.BodyPublishers.ofString(form))
                                  .build());
                        }))
            .toList();
    start.countDown();
    List<HttpResponse<String>> done = answers.stream().map(CompletableFuture::join).toList();
    List<Integer> statuses = done.stream().map(HttpResponse::statusCode).sorted().toList();
    assertEquals(List.of(200, 401), statuses, done.get(0).body() + " / " + done.get(1).body());
    assertTrue(
        done.stream().anyMatch(response -> response.body().contains("jti was already used")),
        done.get(0).body() + " / " + done.get(1).body());
  }
}
