package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The black-box smoke suite that every real server runs over HTTP: the server's own errors in JSON,
 * tokens by HTTP Basic and by form, both key endpoints, an account created and deactivated through
 * the admin API, and the 61st token of a minute refused with 429. Needs a fresh database and the
 * 60-a-minute default.
 */
final class SmokeSuite {
  private final Http http;
  private final String adminId;
  private final String adminSecret;

  SmokeSuite(Http http, String adminId, String adminSecret) {
    this.http = http;
    this.adminId = adminId;
    this.adminSecret = adminSecret;
  }

  void run() {
    containerErrors();
    HttpResponse<String> basic = token(adminId, adminSecret, true);
    assertEquals(200, basic.statusCode(), basic.body());
    JsonNode issued = Http.json(basic);
    assertEquals("Bearer", issued.get("token_type").asText(), basic.body());
    // The production examples give tokens with identity: scopes identity/adminTokenLifetime PT1H.
    assertEquals(3600, issued.get("expires_in").asInt(), basic.body());
    assertEquals(200, token(adminId, adminSecret, false).statusCode());
    String admin = issued.get("access_token").asText();

    JsonNode keys = Http.json(http.get("/api/public-keys")).get("keys");
    assertEquals(1, keys.size(), keys.toString());
    String kid = keys.get(0).get("kid").asText();
    HttpResponse<String> key = http.get("/api/public-keys/" + kid);
    assertEquals(200, key.statusCode(), key.body());
    assertEquals(kid, Http.json(key).get("key_id").asText(), key.body());

    String[] account = create(admin);
    long first = System.nanoTime();
    for (int i = 0; i < 60; i++) {
      HttpResponse<String> response = token(account[0], account[1], i % 2 == 0);
      assertEquals(200, response.statusCode(), "token " + (i + 1) + ": " + response.body());
    }
    // The budget refills one token a second (SPEC 8, smoothly): beyond the 60, at most one more
    // for each second the requests took may pass before the 429.
    HttpResponse<String> limited = token(account[0], account[1], false);
    int refilled = 0;
    while (limited.statusCode() == 200 && refilled < 60) {
      refilled++;
      limited = token(account[0], account[1], false);
    }
    long seconds = Duration.ofNanos(System.nanoTime() - first).toSeconds();
    assertEquals(429, limited.statusCode(), limited.body());
    assertTrue(refilled <= seconds + 1, refilled + " more tokens after 60 in " + seconds + " s");
    assertEquals("rate_limit_exceeded", Http.json(limited).get("error").asText());
    assertTrue(
        limited.headers().firstValue("Retry-After").isPresent(), limited.headers().toString());

    String[] other = create(admin);
    HttpResponse<String> deactivated =
        http.send(
            http.request("/admin/v1/service-accounts/" + other[0] + "/deactivate")
                .header("Authorization", "Bearer " + admin)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    assertEquals(200, deactivated.statusCode(), deactivated.body());
    assertEquals("deactivated", Http.json(deactivated).get("status").asText());
    HttpResponse<String> revoked = token(other[0], other[1], true);
    assertEquals(401, revoked.statusCode(), revoked.body());
    assertEquals("invalid_client", Http.json(revoked).get("error").asText());
    assertTrue(revoked.body().contains("revoked"), revoked.body());
    console(other[0]);
  }

  /**
   * Issue 21: the console on this server: the login form, a sign-in through the token endpoint, a
   * page of the session that lists {@code account}, the same headers, and a form without its CSRF
   * token refused.
   */
  void console(String account) {
    HttpResponse<String> form = http.get("/console/login");
    assertEquals(200, form.statusCode(), form.body());
    assertTrue(
        form.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src"));
    String loginCookie = cookie(form, "identity-console-login");
    Matcher nonce = Pattern.compile("name=\"login_nonce\" value=\"([^\"]+)\"").matcher(form.body());
    assertTrue(nonce.find(), form.body());
    HttpResponse<String> signedIn =
        http.send(
            http.request("/console/login")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", loginCookie)
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "login_nonce="
                            + nonce.group(1)
                            + "&client_id="
                            + adminId
                            + "&client_secret="
                            + URLEncoder.encode(adminSecret, StandardCharsets.UTF_8)))
                .build());
    assertEquals(303, signedIn.statusCode(), signedIn.body());
    String session = cookie(signedIn, "identity-console");
    HttpResponse<String> accounts =
        http.send(http.request("/console/accounts").header("Cookie", session).GET().build());
    assertEquals(200, accounts.statusCode(), accounts.body());
    assertTrue(accounts.body().contains(account), accounts.body());
    HttpResponse<String> noCsrf =
        http.send(
            http.request("/console/accounts/" + account + "/reactivate")
                .header("Cookie", session)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(""))
                .build());
    assertEquals(403, noCsrf.statusCode(), noCsrf.body());
  }

  /** The {@code name=value} of the cookie {@code name} (or its {@code __Host-} form) it sets. */
  private static String cookie(HttpResponse<String> answer, String name) {
    return answer.headers().allValues("Set-Cookie").stream()
        .map(value -> value.split(";", 2)[0])
        .filter(pair -> pair.startsWith(name + "=") || pair.startsWith("__Host-" + name + "="))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no cookie " + name + ": " + answer.headers()));
  }

  /**
   * What the server refuses itself, before or beside the service, still answers in SPEC 7's JSON
   * shapes through the WAR's error page: a path that climbs into WEB-INF, a key path that Jersey
   * cannot route. TRACE is refused and never echoed; only Tomcat lets the error page shape that
   * refusal (Payara answers it in its HTTP adapter, before any error page).
   */
  void containerErrors() {
    RawHttp raw = new RawHttp(http.uri("/"));
    ErrorShapes.error(raw.send("GET", "/api/public-keys/../../WEB-INF/web.xml"), 404);
    ErrorShapes.error(raw.send("GET", "/api/public-keys/a/b"), 404);
    RawHttp.Answer trace = raw.send("TRACE", "/oauth/token", "Authorization: Basic c2VjcmV0");
    assertEquals(405, trace.status(), trace.toString());
    assertFalse(trace.body().contains("c2VjcmV0"), trace.toString());
    // A client that asks before its body (Expect: 100-continue) gets the 100, or the answer at
    // once, never silence: the service reads bodies without blocking, which Tomcat's default never
    // took for the read that sends the 100 (each read here has a 20 s timeout).
    RawHttp.Answer asked =
        raw.sendAsking(
            "POST",
            "/oauth/token",
            "grant_type=client_credentials",
            "Content-Type: application/x-www-form-urlencoded");
    assertEquals(400, asked.status(), asked.toString());
    assertTrue(asked.body().contains("\"invalid_request\""), asked.toString());
  }

  /** A token request by HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or by form fields. */
  HttpResponse<String> token(String id, String secret, boolean basic) {
    HttpRequest.Builder request =
        http.request("/oauth/token").header("Content-Type", "application/x-www-form-urlencoded");
    String form = "grant_type=client_credentials";
    if (basic) {
      String pair = id + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
      request.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    } else {
      form +=
          "&client_id="
              + id
              + "&client_secret="
              + URLEncoder.encode(secret, StandardCharsets.UTF_8);
    }
    return http.send(request.POST(HttpRequest.BodyPublishers.ofString(form)).build());
  }

  /** A new account through the admin API: its client_id and secret. */
  private String[] create(String admin) {
    HttpResponse<String> created =
        http.send(
            http.request("/admin/v1/service-accounts")
                .header("Authorization", "Bearer " + admin)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"smoke\",\"organization_id\":\"org-s\",\"scopes\":[\"catalog:*\"]}"))
                .build());
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new String[] {body.get("client_id").asText(), body.get("client_secret").asText()};
  }
}
