package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.tls.TestPki;
import java.io.IOException;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console (issue 21) over plain HTTP, as an attacker sees it: no session, a forged or replayed
 * one, a form without its CSRF token, odd spellings of the paths, a weaker caller, and the login
 * form's own defences. The browser journeys are {@code ConsoleBrowserIT}'s.
 */
@ExtendWith(ArquillianExtension.class)
class ConsoleIT {
  static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
  static final Pattern NONCE = Pattern.compile("name=\"login_nonce\" value=\"([^\"]+)\"");

  static final Pattern CLIENT_ID = Pattern.compile("id=\"client-id\">([^<]+)<");

  /** The CA of identity/tlsClientCaFile, so that tls_client_auth accounts can be registered. */
  static final TestPki AUTHORITY = TestPki.authority("Console IT CA");

  @Deployment(testable = false)
  static WebArchive deployment() {
    try {
      Path authorities =
          Files.createTempFile(Path.of("target").toAbsolutePath(), "console-it-ca-", ".pem");
      Files.writeString(authorities, pem(AUTHORITY.certificate()));
      authorities.toFile().deleteOnExit();
      return Deployments.war(
          "console-" + UUID.randomUUID(),
          Map.of("identity/tlsClientCaFile", authorities.toString()));
    } catch (IOException | CertificateEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  static String pem(X509Certificate certificate) throws CertificateEncodingException {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  @ArquillianResource URL base;

  /** The audit lines the service writes (embedded Tomcat shares this JVM's logging). */
  final LogCapture audit = LogCapture.of("dev.platform.identity.audit");

  @AfterEach
  void releaseAudit() {
    audit.close();
  }

  Http http() {
    return new Http(base);
  }

  /** A signed-in browser, without the browser: its session cookie and its forms' CSRF token. */
  record Session(String cookie, String csrf) {}

  /** The login cookie and nonce of a fresh login form. */
  record LoginForm(String cookie, String nonce) {}

  LoginForm loginForm() {
    HttpResponse<String> form = http().get("/console/login");
    assertEquals(200, form.statusCode());
    return new LoginForm(cookie(form, "identity-console-login"), find(NONCE, form.body()));
  }

  HttpResponse<String> login(LoginForm form, String body) {
    return http()
        .send(
            http()
                .request("/console/login")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", form.cookie())
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
  }

  HttpResponse<String> login(String clientId, String secret) {
    LoginForm form = loginForm();
    return login(
        form,
        "login_nonce="
            + form.nonce()
            + "&client_id="
            + encode(clientId)
            + "&client_secret="
            + encode(secret));
  }

  Session session(String clientId, String secret) {
    HttpResponse<String> answer = login(clientId, secret);
    assertEquals(303, answer.statusCode(), answer.body());
    String cookie = cookie(answer, "identity-console");
    HttpResponse<String> overview = get("/console/", cookie);
    assertEquals(200, overview.statusCode(), overview.body());
    return new Session(cookie, find(CSRF, overview.body()));
  }

  HttpResponse<String> get(String path, String cookie) {
    HttpRequest.Builder request = http().request(path).GET();
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return http().send(request.build());
  }

  HttpResponse<String> post(String path, String cookie, String contentType, String body) {
    HttpRequest.Builder request =
        http()
            .request(path)
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return http().send(request.build());
  }

  HttpResponse<String> form(String path, Session session, String body) {
    return post(path, session.cookie(), "application/x-www-form-urlencoded", body);
  }

  HttpResponse<String> token(String clientId, String secret) {
    return http().tokenResponse(clientId, secret);
  }

  String adminToken() {
    return http().adminToken();
  }

  /** An account made through the API: {@code [client_id, client_secret]}. */
  String[] account(String admin, String name, String org, String scopes) {
    HttpResponse<String> created =
        http()
            .admin(
                "POST",
                "/service-accounts",
                admin,
                "{\"name\":\""
                    + name.replace("\"", "\\\"")
                    + "\",\"organization_id\":\""
                    + org
                    + "\",\"scopes\":["
                    + scopes
                    + "]}");
    assertEquals(201, created.statusCode(), created.body());
    JsonNode body = Http.json(created);
    return new String[] {body.get("client_id").asText(), body.get("client_secret").asText()};
  }

  String status(String admin, String clientId) {
    return Http.json(http().admin("GET", "/service-accounts/" + clientId, admin, null))
        .get("status")
        .asText();
  }

  static void assertToLogin(HttpResponse<String> answer, String what) {
    assertEquals(303, answer.statusCode(), what + ": " + answer.body());
    assertEquals("/console/login", answer.headers().firstValue("Location").orElse(null), what);
  }

  @Test
  void whenThereIsNoSessionThenEveryPageHoweverSpelledLeadsToTheLoginAndNeverAnswers() {
    List<String> paths =
        List.of(
            "/console",
            "/console/",
            "/console/accounts",
            "/console/accounts/new",
            "/console/accounts/" + Deployments.ADMIN_ID,
            "/console/accounts/" + Deployments.ADMIN_ID + "/confirm/delete",
            "/console/keys",
            "/console/scopes",
            "/console/audit",
            "/console;x/accounts",
            "/console/accounts;jsessionid=1",
            "//console/accounts",
            "/console/./accounts",
            "/console/x/../accounts",
            "/console/%61ccounts",
            "/console/accounts/",
            "/Console/accounts");
    for (String path : paths) {
      HttpResponse<String> answer = get(path, null);
      assertNotEquals(200, answer.statusCode(), path + " answered: " + answer.body());
      assertFalse(answer.body().contains(Deployments.ADMIN_ID), path);
      if (answer.statusCode() == 303) {
        assertToLogin(answer, path);
      } else {
        assertTrue(answer.statusCode() == 404 || answer.statusCode() == 400, path);
      }
    }
    for (String forged :
        List.of(
            "identity-console=",
            "identity-console=AAAA",
            "identity-console=" + "A".repeat(400),
            "identity-console=" + loginForm().cookie().split("=", 2)[1])) {
      assertToLogin(get("/console/accounts", forged), forged);
    }
  }

  @Test
  void whenAFormLacksItsCsrfTokenThenItIsRefusedAndNothingChanges() {
    String admin = adminToken();
    String victim = account(admin, "csrf victim", "org-csrf", "\"marketing:*\"")[0];
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    String path = "/console/accounts/" + victim + "/deactivate";
    List<HttpResponse<String>> refused =
        List.of(
            form(path, session, ""),
            form(path, session, "csrf=" + "A".repeat(43)),
            form(path, session, "csrf=" + session.csrf() + "&csrf=" + session.csrf()),
            form(path, session, "csrf=x&csrf=" + session.csrf()),
            form(path + "?csrf=" + session.csrf(), session, ""));
    for (HttpResponse<String> answer : refused) {
      assertEquals(403, answer.statusCode(), answer.body());
      assertTrue(answer.body().contains("stale or did not come from the console"), answer.body());
    }
    // A body of another type matches no console method: Jersey's 415, before anything runs.
    for (String type :
        List.of("application/json", "text/plain", "multipart/form-data; boundary=x")) {
      HttpResponse<String> answer = post(path, session.cookie(), type, "csrf=" + session.csrf());
      assertEquals(415, answer.statusCode(), type + ": " + answer.body());
    }
    assertEquals("active", status(admin, victim));
    // Without any session at all, the form leads to the login.
    assertToLogin(form(path, new Session(null, null), "csrf=" + session.csrf()), "no session");
    assertEquals("active", status(admin, victim));

    HttpResponse<String> done = form(path, session, "csrf=" + session.csrf());
    assertEquals(303, done.statusCode(), done.body());
    assertEquals(
        "/console/accounts/" + victim + "?done=deactivated",
        done.headers().firstValue("Location").orElse(null));
    assertEquals("deactivated", status(admin, victim));
  }

  @Test
  void whenAnAdministratorRevokesAllTokensOfAnAccountThenItsConsoleSessionEnds() {
    String admin = adminToken();
    String[] second = account(admin, "revoked admin", "root", "\"identity:admin\"");
    Session other = session(second[0], second[1]);
    assertEquals(200, get("/console/accounts", other.cookie()).statusCode());
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    HttpResponse<String> page = get("/console/accounts/" + second[0], session.cookie());
    assertTrue(page.body().contains("Revoke all tokens"), page.body());

    HttpResponse<String> done =
        form(
            "/console/accounts/" + second[0] + "/revoke-tokens", session, "csrf=" + session.csrf());

    assertEquals(303, done.statusCode(), done.body());
    assertEquals(
        "/console/accounts/" + second[0] + "?done=tokens-revoked",
        done.headers().firstValue("Location").orElse(null));
    assertToLogin(get("/console/accounts", other.cookie()), "revoked administrator");
    assertEquals("active", status(admin, second[0]));
  }

  @Test
  void whenACallerManagesOneOrganizationThenTheConsoleShowsAndChangesOnlyItsAccounts() {
    String admin = adminToken();
    String[] manager =
        account(admin, "manager a", "org-a", "\"identity:accounts.manage\",\"marketing:*\"");
    String own = account(admin, "own account", "org-a", "\"marketing:*\"")[0];
    String foreign = account(admin, "foreign account", "org-b", "\"marketing:*\"")[0];
    Session session = session(manager[0], manager[1]);

    String list = get("/console/accounts", session.cookie()).body();
    assertTrue(list.contains(own), list);
    assertFalse(list.contains(foreign), list);
    assertFalse(list.contains(Deployments.ADMIN_ID), "the administrator is beyond its reach");

    HttpResponse<String> detail = get("/console/accounts/" + foreign, session.cookie());
    assertEquals(404, detail.statusCode());
    assertFalse(detail.body().contains("foreign account"), detail.body());
    HttpResponse<String> change =
        form("/console/accounts/" + foreign + "/deactivate", session, "csrf=" + session.csrf());
    assertEquals(404, change.statusCode(), change.body());
    assertEquals("active", status(admin, foreign));
    HttpResponse<String> otherOrg =
        get("/console/accounts?organization_id=org-b", session.cookie());
    assertEquals(403, otherOrg.statusCode(), otherOrg.body());

    // A caller with another administration scope only: the accounts are not its to see.
    String[] keeper = account(admin, "key keeper", "org-a", "\"identity:keys.manage\"");
    Session keys = session(keeper[0], keeper[1]);
    HttpResponse<String> refused = get("/console/accounts", keys.cookie());
    assertEquals(403, refused.statusCode(), refused.body());
    assertFalse(refused.body().contains(own));
    assertFalse(get("/console/", keys.cookie()).body().contains("/console/accounts\""));
  }

  @Test
  void whenACallerLacksTheKeyOrScopeAdministrationThenThoseFormsAreRefusedAndNothingChanges() {
    String admin = adminToken();
    String[] reader = account(admin, "audit reader", "org-r", "\"identity:audit.read\"");
    Session session = session(reader[0], reader[1]);
    String keysBefore = http().admin("GET", "/signing-keys", admin, null).body();
    String kid =
        Http.json(http().admin("GET", "/signing-keys", admin, null))
            .get("items")
            .get(0)
            .get("kid")
            .asText();
    for (String path :
        List.of(
            "/console/keys/rotate",
            "/console/keys/" + kid + "/revoke",
            "/console/scopes/marketing:*")) {
      HttpResponse<String> answer =
          form(path, session, "csrf=" + session.csrf() + "&immediate=true&description=x");
      assertEquals(403, answer.statusCode(), path + ": " + answer.body());
    }
    assertEquals(keysBefore, http().admin("GET", "/signing-keys", admin, null).body());
    assertEquals(403, get("/console/keys", session.cookie()).statusCode());
    assertEquals(200, get("/console/audit", session.cookie()).statusCode());

    // A key manager rotates through the console as through the API.
    String[] keeper = account(admin, "key rotator", "org-r", "\"identity:keys.manage\"");
    Session keys = session(keeper[0], keeper[1]);
    HttpResponse<String> rotated = form("/console/keys/rotate", keys, "csrf=" + keys.csrf());
    assertEquals(303, rotated.statusCode(), rotated.body());
    assertEquals(
        keysBefore.split("\"kid\"").length + 1,
        http().admin("GET", "/signing-keys", admin, null).body().split("\"kid\"").length);
    assertEquals(
        403, form("/console/scopes/marketing:*", keys, "csrf=" + keys.csrf()).statusCode());
  }

  @Test
  void whenTheSessionEndsThenACopyOfItsCookieIsDeadToo() {
    String admin = adminToken();
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    HttpResponse<String> out = form("/console/logout", session, "csrf=" + session.csrf());
    assertEquals(303, out.statusCode(), out.body());
    assertEquals("/console/login?ended", out.headers().firstValue("Location").orElse(null));
    assertTrue(
        out.headers().allValues("Set-Cookie").stream()
            .anyMatch(
                value -> value.startsWith("identity-console=;") && value.contains("Max-Age=0")));
    assertToLogin(get("/console/accounts", session.cookie()), "replayed after logout");

    // An administrator deactivated while signed in loses the console at its next request.
    String[] second = account(admin, "second admin", "root", "\"identity:admin\"");
    Session other = session(second[0], second[1]);
    assertEquals(200, get("/console/accounts", other.cookie()).statusCode());
    assertEquals(
        200,
        http()
            .admin("POST", "/service-accounts/" + second[0] + "/deactivate", admin, null)
            .statusCode());
    assertToLogin(get("/console/accounts", other.cookie()), "deactivated administrator");
  }

  /**
   * The stored audit events of {@code event} for {@code actor}, newest first, as the API lists
   * them.
   */
  JsonNode trail(String admin, String event, String actor) {
    HttpResponse<String> listed =
        http()
            .admin("GET", "/audit-events?event=" + event + "&actor=" + encode(actor), admin, null);
    assertEquals(200, listed.statusCode(), listed.body());
    return Http.json(listed).get("items");
  }

  @Test
  void whenAnAdministratorSignsInFailsAndSignsOutThenTheTrailHoldsEachAndNeverTheSecret() {
    String admin = adminToken();
    String[] manager = account(admin, "trail manager", "org-t", "\"identity:accounts.manage\"");
    String swapped = manager[1];

    // Swapped fields: the secret typed as the client_id, twice; one row, then its count.
    assertEquals(401, login(swapped, manager[0]).statusCode());
    assertEquals(401, login(swapped, manager[0]).statusCode());
    assertEquals(401, login(manager[0], "not-the-secret").statusCode());
    Session session = session(manager[0], manager[1]);
    assertEquals(303, form("/console/logout", session, "csrf=" + session.csrf()).statusCode());

    JsonNode signIns = trail(admin, "console.signin", manager[0]);
    assertEquals(1, signIns.size(), signIns.toString());
    assertEquals("success", signIns.get(0).get("outcome").asText());
    assertFalse(signIns.get(0).get("remote_address").asText().isEmpty());
    assertFalse(signIns.get(0).get("detail").get("expires_at").asText().isEmpty());
    JsonNode refused = trail(admin, "console.signin.refuse", manager[0]);
    assertEquals(1, refused.size(), refused.toString());
    assertEquals("invalid_client", refused.get(0).get("outcome").asText());
    JsonNode malformed = trail(admin, "console.signin.refuse", "(malformed client_id)");
    assertTrue(malformed.size() >= 1, malformed.toString());
    assertEquals(1, trail(admin, "console.signout", manager[0]).size());

    HttpResponse<String> all = http().admin("GET", "/audit-events?limit=500", admin, null);
    assertFalse(all.body().contains(swapped), "the secret is never in the trail");
    assertTrue(
        audit.messages().stream().noneMatch(line -> line.contains(swapped)),
        "nor in an audit line: " + audit.messages());
    String page =
        get("/console/audit", session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET).cookie())
            .body();
    assertTrue(page.contains("console.signout"), "the console's audit page shows them");
  }

  @Test
  void whenTheLoginFormIsAbusedThenItRefusesInWordsAndCountsLikeTheTokenEndpoint() {
    String admin = adminToken();
    LoginForm form = loginForm();
    String credentials =
        "&client_id=" + Deployments.ADMIN_ID + "&client_secret=" + encode(Deployments.ADMIN_SECRET);
    assertEquals(403, login(form, "login_nonce=" + "A".repeat(43) + credentials).statusCode());
    assertEquals(
        403,
        login(new LoginForm("x=y", form.nonce()), "login_nonce=" + form.nonce() + credentials)
            .statusCode());
    assertEquals(
        400,
        login(
                form,
                "login_nonce=" + form.nonce() + credentials + "&client_id=" + Deployments.ADMIN_ID)
            .statusCode());

    String[] plain = account(admin, "no identity scope", "org-l", "\"marketing:*\"");
    HttpResponse<String> noScope = login(plain[0], plain[1]);
    assertEquals(403, noScope.statusCode());
    assertTrue(noScope.body().contains("no identity: administration scope"), noScope.body());
    assertTrue(
        noScope.headers().allValues("Set-Cookie").stream()
            .noneMatch(
                value -> value.startsWith("identity-console=") && !value.contains("Max-Age=0")));

    String[] target = account(admin, "login target", "org-l", "\"identity:accounts.manage\"");
    HttpResponse<String> wrong = login(target[0], "not-the-secret");
    assertEquals(401, wrong.statusCode());
    assertTrue(wrong.body().contains("role=\"alert\""), wrong.body());
    assertFalse(wrong.body().contains("not-the-secret"), "the secret is never echoed");
    assertTrue(
        audit.messages().stream()
            .anyMatch(
                line ->
                    line.contains("\"event\":\"token.refuse\"")
                        && line.contains(target[0])
                        && line.contains("invalid_client")),
        "the wrong secret is audited as at the token endpoint: " + audit.messages());

    // The token endpoint's failure budget for (client_id, address): 20 a minute, then 429.
    int status = 0;
    for (int i = 0; i < 25 && status != 429; i++) {
      status = login(target[0], "not-the-secret").statusCode();
    }
    assertEquals(429, status, "the console's failures spend the token endpoint's budget");
    HttpResponse<String> limited = token(target[0], target[1]);
    assertEquals(429, limited.statusCode(), "and the same budget refuses the token endpoint");
  }

  @Test
  void whenAnyConsoleAnswerIsSentThenItCarriesThePolicyAndTheCookiesTheirAttributes() {
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    for (HttpResponse<String> answer :
        List.of(
            get("/console/login", null),
            get("/console/", session.cookie()),
            get("/console/accounts", session.cookie()),
            get("/console/no-such-page", session.cookie()),
            get("/console/static/console.css", null))) {
      String policy = answer.headers().firstValue("Content-Security-Policy").orElse("");
      assertTrue(policy.contains("default-src 'self'"), answer.uri() + " " + policy);
      assertTrue(policy.contains("frame-ancestors 'none'"), answer.uri() + " " + policy);
      assertEquals("no-store", answer.headers().firstValue("Cache-Control").orElse(null));
      assertEquals("nosniff", answer.headers().firstValue("X-Content-Type-Options").orElse(null));
    }
    HttpResponse<String> page = get("/console/accounts", session.cookie());
    assertFalse(page.body().contains("<script>"), "no inline script");
    assertFalse(page.body().contains("style=\""), "no inline style");
    String cookie =
        page.headers().allValues("Set-Cookie").stream()
            .filter(value -> value.startsWith("identity-console="))
            .findFirst()
            .orElseThrow();
    assertTrue(cookie.contains("; Path=/console"), cookie);
    assertTrue(cookie.contains("; HttpOnly"), cookie);
    assertTrue(cookie.contains("; SameSite=Strict"), cookie);
    assertEquals(200, get("/console/static/console.js", null).statusCode());
    assertEquals(404, get("/console/static/web.xml", null).statusCode());
    assertNotEquals(200, get("/console/static/..%2F..%2FWEB-INF%2Fweb.xml", null).statusCode());
  }

  @Test
  void whenAnAccountIsNamedLikeMarkupThenThePagesShowItAsText() {
    String admin = adminToken();
    String name = "<img src=x onerror=alert(1)>\"'&";
    String id = account(admin, name, "org-x", "\"marketing:*\"")[0];
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    for (String path :
        List.of(
            "/console/accounts",
            "/console/accounts/" + id,
            "/console/accounts/" + id + "/confirm/delete")) {
      String body = get(path, session.cookie()).body();
      assertFalse(body.contains("<img"), path);
      assertTrue(body.contains("&lt;img src=x onerror=alert(1)&gt;"), path + ": " + body);
    }
  }

  /** The new-account form's body: the CSRF token, the profile, then {@code fields} encoded. */
  static String newAccount(
      Session session, String name, String org, String scopes, String... fields) {
    StringBuilder body =
        new StringBuilder("csrf=")
            .append(session.csrf())
            .append("&name=")
            .append(encode(name))
            .append("&organization_id=")
            .append(encode(org))
            .append("&scopes=")
            .append(encode(scopes));
    for (int i = 0; i < fields.length; i += 2) {
      body.append('&').append(fields[i]).append('=').append(encode(fields[i + 1]));
    }
    return body.toString();
  }

  JsonNode apiAccount(String admin, String clientId) {
    HttpResponse<String> found = http().admin("GET", "/service-accounts/" + clientId, admin, null);
    assertEquals(200, found.statusCode(), found.body());
    return Http.json(found);
  }

  /** The names of the accounts of {@code org}, as the API lists them. */
  List<String> names(String admin, String org) {
    HttpResponse<String> listed =
        http().admin("GET", "/service-accounts?organization_id=" + org, admin, null);
    assertEquals(200, listed.statusCode(), listed.body());
    List<String> names = new java.util.ArrayList<>();
    Http.json(listed).get("items").forEach(item -> names.add(item.get("name").asText()));
    return names;
  }

  @Test
  void whenATlsClientAuthAccountIsCreatedInTheConsoleThenItHasItsSubjectAndNoSecret() {
    String admin = adminToken();
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    String form = get("/console/accounts/new", session.cookie()).body();
    assertTrue(form.contains("value=\"tls_client_auth\""), form);
    assertTrue(form.contains("value=\"self_signed_tls_client_auth\""), form);
    assertTrue(
        form.contains("value=\"client_secret_basic\" checked"), "secret is the default: " + form);

    HttpResponse<String> created =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "orders over mtls",
                "org-tls",
                "marketing:*",
                "token_endpoint_auth_method",
                "tls_client_auth",
                "tls_client_auth_subject_form",
                "san_dns",
                "tls_client_auth_subject",
                "orders.example.com"));
    assertEquals(201, created.statusCode(), created.body());
    assertTrue(created.body().contains("id=\"no-secret\""), created.body());
    assertFalse(created.body().contains("id=\"client-secret\""), created.body());
    String id = find(CLIENT_ID, created.body());
    JsonNode account = apiAccount(admin, id);
    assertEquals("tls_client_auth", account.get("token_endpoint_auth_method").asText());
    assertEquals("orders.example.com", account.get("tls_client_auth_san_dns").asText());
    assertFalse(account.has("tls_client_auth_subject_dn"), account.toString());
    assertFalse(account.has("secret_created_at"), "no secret: " + account);
    assertTrue(account.get("tls_client_certificate_bound_access_tokens").asBoolean());

    String page = get("/console/accounts/" + id, session.cookie()).body();
    assertTrue(page.contains(">tls_client_auth</dd>"), page);
    assertTrue(page.contains("DNS name (SAN): <code>orders.example.com</code>"), page);
    assertTrue(page.contains("<dd id=\"bound-tokens\">yes</dd>"), page);
    assertFalse(page.contains("id=\"rotate-secret\""), "no secret to rotate: " + page);

    // The API's refusal of the value is the form's message, with what was typed kept.
    HttpResponse<String> refused =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "bad ip",
                "org-tls",
                "marketing:*",
                "token_endpoint_auth_method",
                "tls_client_auth",
                "tls_client_auth_subject_form",
                "san_ip",
                "tls_client_auth_subject",
                "999.1.1.1"));
    assertEquals(400, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("role=\"alert\""), refused.body());
    assertTrue(refused.body().contains("tls_client_auth_san_ip"), refused.body());
    assertTrue(refused.body().contains("value=\"999.1.1.1\""), refused.body());
    assertTrue(refused.body().contains("value=\"san_ip\" selected"), refused.body());
    assertTrue(refused.body().contains("value=\"tls_client_auth\" checked"), refused.body());
    // No subject at all: the API names the five fields it needs one of.
    HttpResponse<String> none =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "no subject",
                "org-tls",
                "marketing:*",
                "token_endpoint_auth_method",
                "tls_client_auth",
                "tls_client_auth_subject_form",
                "subject_dn"));
    assertEquals(400, none.statusCode(), none.body());
    assertTrue(none.body().contains("needs exactly one of"), none.body());
    assertEquals(List.of("orders over mtls"), names(admin, "org-tls"));
  }

  @Test
  void whenASecretAccountAsksForBoundTokensThenItsSecretIsShownAndItsTokensAreBound() {
    String admin = adminToken();
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    HttpResponse<String> created =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "bound secret",
                "org-bound",
                "marketing:*",
                "token_endpoint_auth_method",
                "client_secret_basic",
                "tls_client_certificate_bound_access_tokens",
                "true"));
    assertEquals(201, created.statusCode(), created.body());
    assertTrue(created.body().contains("id=\"client-secret\""), created.body());
    String id = find(CLIENT_ID, created.body());
    JsonNode account = apiAccount(admin, id);
    assertEquals("client_secret_basic", account.get("token_endpoint_auth_method").asText());
    assertTrue(account.get("tls_client_certificate_bound_access_tokens").asBoolean());
    String page = get("/console/accounts/" + id, session.cookie()).body();
    assertTrue(page.contains("<dd id=\"bound-tokens\">yes</dd>"), page);

    // Unticked, as before issue 39: not bound.
    HttpResponse<String> plain =
        form(
            "/console/accounts/new",
            session,
            newAccount(session, "plain secret", "org-bound", "marketing:*"));
    assertEquals(201, plain.statusCode(), plain.body());
    JsonNode unbound = apiAccount(admin, find(CLIENT_ID, plain.body()));
    assertFalse(unbound.get("tls_client_certificate_bound_access_tokens").asBoolean());
  }

  @Test
  void whenAnAccountIsCreatedRequiringDpopThenTheApiAndItsPagesShowIt() {
    String admin = adminToken();
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    HttpResponse<String> created =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "dpop secret",
                "org-dpop",
                "marketing:*",
                "dpop_bound_access_tokens",
                "true"));
    assertEquals(201, created.statusCode(), created.body());
    assertTrue(created.body().contains("<dd id=\"dpop-tokens\">yes</dd>"), created.body());
    String id = find(CLIENT_ID, created.body());
    assertTrue(apiAccount(admin, id).get("dpop_bound_access_tokens").asBoolean());
    String page = get("/console/accounts/" + id, session.cookie()).body();
    assertTrue(page.contains("<dd id=\"dpop-tokens\">yes</dd>"), page);

    HttpResponse<String> plain =
        form(
            "/console/accounts/new",
            session,
            newAccount(session, "plain dpop-less", "org-dpop", "marketing:*"));
    assertEquals(201, plain.statusCode(), plain.body());
    assertFalse(
        apiAccount(admin, find(CLIENT_ID, plain.body()))
            .get("dpop_bound_access_tokens")
            .asBoolean());
    String form = get("/console/accounts/new", session.cookie()).body();
    assertTrue(form.contains("name=\"dpop_bound_access_tokens\""), form);
  }

  @Test
  void whenASelfSignedCertificateIsPastedThenTheAccountHoldsItAndABadOneIsRefusedInWords()
      throws Exception {
    String admin = adminToken();
    Session session = session(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    X509Certificate certificate = TestPki.selfSigned("CN=console-orders").certificate();
    HttpResponse<String> created =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "self-signed orders",
                "org-self",
                "marketing:*",
                "token_endpoint_auth_method",
                "self_signed_tls_client_auth",
                "certificate",
                pem(certificate).replace("\n", "\r\n")));
    assertEquals(201, created.statusCode(), created.body());
    assertTrue(created.body().contains("id=\"no-secret\""), created.body());
    String id = find(CLIENT_ID, created.body());
    JsonNode account = apiAccount(admin, id);
    assertEquals("self_signed_tls_client_auth", account.get("token_endpoint_auth_method").asText());
    JsonNode keys = account.get("jwks").get("keys");
    assertEquals(1, keys.size(), account.toString());
    assertEquals("EC", keys.get(0).get("kty").asText());
    assertEquals(
        Base64.getEncoder().encodeToString(certificate.getEncoded()),
        keys.get(0).get("x5c").get(0).asText());
    assertTrue(account.get("tls_client_certificate_bound_access_tokens").asBoolean());
    String page = get("/console/accounts/" + id, session.cookie()).body();
    assertTrue(page.contains(">self_signed_tls_client_auth</dd>"), page);

    String broken = "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n";
    String privateKey =
        "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49secret\n-----END PRIVATE KEY-----";
    for (String[] bad :
        new String[][] {
          {broken, "is not one PEM certificate"},
          {pem(certificate) + pem(certificate), "holds 2 certificates"},
          {"", "needs its certificate"},
          {privateKey, "holds a private key"}
        }) {
      HttpResponse<String> refused =
          form(
              "/console/accounts/new",
              session,
              newAccount(
                  session,
                  "bad pem",
                  "org-self",
                  "marketing:*",
                  "token_endpoint_auth_method",
                  "self_signed_tls_client_auth",
                  "certificate",
                  bad[0]));
      assertEquals(400, refused.statusCode(), refused.body());
      assertTrue(refused.body().contains("role=\"alert\""), refused.body());
      assertTrue(refused.body().contains(bad[1]), bad[1] + ": " + refused.body());
      assertTrue(
          refused.body().contains("value=\"self_signed_tls_client_auth\" checked"), refused.body());
    }
    HttpResponse<String> key =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session,
                "bad pem",
                "org-self",
                "marketing:*",
                "token_endpoint_auth_method",
                "self_signed_tls_client_auth",
                "certificate",
                privateKey));
    assertFalse(key.body().contains("MIGHAgEAMBMGByqGSM49secret"), "a pasted key is not echoed");
    // A certificate with the secret method: one method per account.
    HttpResponse<String> mixed =
        form(
            "/console/accounts/new",
            session,
            newAccount(
                session, "bad pem", "org-self", "marketing:*", "certificate", pem(certificate)));
    assertEquals(400, mixed.statusCode(), mixed.body());
    assertTrue(mixed.body().contains("only for a self-signed certificate"), mixed.body());
    assertEquals(List.of("self-signed orders"), names(admin, "org-self"));
  }

  @Test
  void whenAManagerAsksBeyondItsCeilingThenACertificateAccountIsRefusedAsASecretOneIs()
      throws Exception {
    String admin = adminToken();
    String[] manager =
        account(admin, "ceiling manager", "org-m", "\"identity:accounts.manage\",\"marketing:*\"");
    Session session = session(manager[0], manager[1]);
    String pem = pem(TestPki.selfSigned("CN=ceiling").certificate());
    String[][] methods = {
      {},
      {"token_endpoint_auth_method", "self_signed_tls_client_auth", "certificate", pem},
      {
        "token_endpoint_auth_method",
        "tls_client_auth",
        "tls_client_auth_subject_form",
        "subject_dn",
        "tls_client_auth_subject",
        "CN=ceiling"
      }
    };
    // Another organization, then a scope the manager does not hold: each method meets the same
    // 403 with the same words.
    for (String[] beyond : new String[][] {{"org-other", "marketing:*"}, {"org-m", "catalog:*"}}) {
      List<String> refusals = new java.util.ArrayList<>();
      for (String[] method : methods) {
        HttpResponse<String> refused =
            form(
                "/console/accounts/new",
                session,
                newAccount(session, "too wide", beyond[0], beyond[1], method));
        assertEquals(403, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("role=\"alert\""), refused.body());
        refusals.add(find(Pattern.compile("id=\"form-message\">([^<]+)<"), refused.body()));
      }
      assertEquals(1, refusals.stream().distinct().count(), refusals.toString());
    }
    assertFalse(names(admin, "org-other").contains("too wide"));
    assertFalse(names(admin, "org-m").contains("too wide"));
    // Within the ceiling, the manager registers both kinds.
    for (String[] method : List.of(methods[1], methods[2])) {
      HttpResponse<String> created =
          form(
              "/console/accounts/new",
              session,
              newAccount(session, "within " + method[1], "org-m", "marketing:*", method));
      assertEquals(201, created.statusCode(), created.body());
    }
  }

  static String cookie(HttpResponse<String> answer, String name) {
    return answer.headers().allValues("Set-Cookie").stream()
        .filter(value -> value.startsWith(name + "="))
        .map(value -> value.split(";", 2)[0])
        .findFirst()
        .orElseThrow(() -> new AssertionError("no cookie " + name + " in " + answer.headers()));
  }

  static String find(Pattern pattern, String body) {
    Matcher found = pattern.matcher(body);
    assertTrue(found.find(), "no " + pattern + " in " + body);
    return found.group(1);
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
