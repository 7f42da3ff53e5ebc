package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.jose.DpopSigner;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 40 item 4 over HTTP, with server nonces on ({@code identity/dpopNonces}): the console signs
 * in as a DPoP client, so an administration account registered with {@code
 * dpop_bound_access_tokens} signs in, reads its pages and posts its forms; every session's token is
 * bound to the session's own key ({@code cnf.jkt}), so the token taken out of a session is refused
 * at {@code /admin/v1} as {@code Bearer} and as {@code DPoP} without that key's proof.
 *
 * <p>The test opens the sealed cookie with the deployment's key-encryption key, as only a thief of
 * that key could, to hold the token as a thief of the token alone would.
 */
@ExtendWith(ArquillianExtension.class)
class ConsoleDpopIT {
  /** The test deployments' key-encryption key ({@link Deployments}). */
  static final byte[] KEY_ENCRYPTION_KEY =
      Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");

  @Deployment(testable = false)
  static WebArchive deployment() {
    return Deployments.war(
        "console-dpop-" + UUID.randomUUID(), Map.of("identity/dpopNonces", "true"));
  }

  @ArquillianResource URL base;

  final LogCapture audit = LogCapture.of("dev.platform.identity.audit");

  /** ConsoleIT's browser without a browser, over this deployment. */
  ConsoleIT console;

  @AfterEach
  void releaseAudit() {
    audit.close();
    if (console != null) {
      console.audit.close();
    }
  }

  /** A signed-in browser's parts, and what its sealed cookie holds. */
  record Session(String cookie, String csrf, String token) {}

  ConsoleIT console() {
    if (console == null) {
      console = new ConsoleIT();
      console.base = base;
    }
    return console;
  }

  Session signIn(String clientId, String secret) throws Exception {
    ConsoleIT.Session session = console().session(clientId, secret);
    return new Session(session.cookie(), session.csrf(), sealedToken(session.cookie()));
  }

  /** An account made through the API: its JSON, with its one secret. */
  JsonNode account(String name, String scopes, boolean requiresDpop) {
    HttpResponse<String> created =
        new Http(base)
            .admin(
                "POST",
                "/service-accounts",
                new Http(base).adminToken(),
                "{\"name\":\""
                    + name
                    + "\",\"organization_id\":\"org-dpop\",\"scopes\":["
                    + scopes
                    + "],\"dpop_bound_access_tokens\":"
                    + requiresDpop
                    + "}");
    assertEquals(201, created.statusCode(), created.body());
    return Http.json(created);
  }

  @Test
  void whenAnAccountRequiresDpopThenItSignsInAndItsPagesAndFormsWork() throws Exception {
    JsonNode operator = account("dpop operator", "\"identity:admin\"", true);
    String id = operator.get("client_id").asText();
    HttpResponse<String> direct =
        new Http(base).tokenResponse(id, operator.get("client_secret").asText());
    assertEquals(400, direct.statusCode(), "without a proof it gets no token: " + direct.body());
    assertEquals("invalid_dpop_proof", Http.json(direct).get("error").asText());

    Session session = signIn(id, operator.get("client_secret").asText());

    HttpResponse<String> accounts = console().get("/console/accounts", session.cookie());
    assertEquals(200, accounts.statusCode(), accounts.body());
    assertTrue(accounts.body().contains("dpop operator"), "the list shows its own account");
    String victim = account("dpop victim", "\"marketing:*\"", false).get("client_id").asText();
    HttpResponse<String> done =
        console()
            .form(
                "/console/accounts/" + victim + "/deactivate",
                new ConsoleIT.Session(session.cookie(), session.csrf()),
                "csrf=" + session.csrf());
    assertEquals(303, done.statusCode(), done.body());
    assertEquals(
        "deactivated",
        Http.json(
                new Http(base)
                    .admin("GET", "/service-accounts/" + victim, new Http(base).adminToken(), null))
            .get("status")
            .asText());
  }

  @Test
  void whenTheSessionsTokenIsTakenOutOfItThenItIsBoundAndAdminV1RefusesItAlone() throws Exception {
    // Every session signs in with DPoP, an account that does not require it too.
    Session session = signIn(Deployments.ADMIN_ID, Deployments.ADMIN_SECRET);
    JsonNode claims =
        new ObjectMapper().readTree(Base64.getUrlDecoder().decode(session.token().split("\\.")[1]));
    String jkt = claims.path("cnf").path("jkt").asText();
    assertEquals(43, jkt.length(), claims.toString());
    assertTrue(
        audit.messages().stream()
            .anyMatch(line -> line.contains("token.issue") && line.contains(jkt)),
        "the token endpoint bound it to the session's key: " + audit.messages());

    HttpResponse<String> asBearer =
        new Http(base).admin("GET", "/service-accounts", session.token(), null);
    assertEquals(401, asBearer.statusCode(), asBearer.body());
    HttpResponse<String> withoutProof =
        new Http(base)
            .send(
                "GET",
                "/admin/v1/service-accounts",
                null,
                "Authorization: DPoP " + session.token());
    assertEquals(401, withoutProof.statusCode(), withoutProof.body());
    assertTrue(
        withoutProof.headers().firstValue("WWW-Authenticate").orElse("").startsWith("DPoP "),
        withoutProof.headers().toString());
    // The session itself, which holds the key, still works.
    assertEquals(200, console().get("/console/", session.cookie()).statusCode());
  }

  @Test
  void whenNoncesAreOnThenTheSignInStillWorksAndAWrongSecretIsRefusedAsBefore() throws Exception {
    // Nonces are on: a proof without one is refused, so the console's sign-in had to retry.
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    String proof =
        new DpopSigner(generator.generateKeyPair(), new SecureRandom())
            .proof(
                "POST", URI.create(Deployments.ISSUER + "/oauth/token"), null, null, Instant.now());
    HttpResponse<String> noNonce =
        new Http(base)
            .send(
                new Http(base)
                    .request("/oauth/token")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("DPoP", proof)
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "grant_type=client_credentials&client_id="
                                + Deployments.ADMIN_ID
                                + "&client_secret="
                                + ConsoleIT.encode(Deployments.ADMIN_SECRET)))
                    .build());
    assertEquals(400, noNonce.statusCode(), noNonce.body());
    assertEquals("use_dpop_nonce", Http.json(noNonce).get("error").asText());

    JsonNode operator = account("nonce operator", "\"identity:audit.read\"", true);
    Session session =
        signIn(operator.get("client_id").asText(), operator.get("client_secret").asText());
    HttpResponse<String> events = console().get("/console/audit", session.cookie());
    assertEquals(200, events.statusCode(), events.body());

    HttpResponse<String> wrong = console().login(operator.get("client_id").asText(), "wrong");
    assertEquals(401, wrong.statusCode(), wrong.body());
    assertTrue(
        wrong.body().contains("The client_id or client_secret is wrong"), "worded as before");
    assertFalse(wrong.body().contains("DPoP"), wrong.body());
  }

  /** The token the session cookie {@code cookie} ({@code name=value}) holds. */
  static String sealedToken(String cookie) throws Exception {
    String[] pair = cookie.split("=", 2);
    Mac hmac = Mac.getInstance("HmacSHA256");
    hmac.init(new SecretKeySpec(KEY_ENCRYPTION_KEY, "HmacSHA256"));
    byte[] key =
        hmac.doFinal(
            "dev.platform.identity console session key v1".getBytes(StandardCharsets.US_ASCII));
    byte[] raw = Base64.getUrlDecoder().decode(pair[1]);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, raw, 1, 12));
    cipher.updateAAD(pair[0].getBytes(StandardCharsets.US_ASCII));
    String plain = new String(cipher.doFinal(raw, 13, raw.length - 13), StandardCharsets.US_ASCII);
    List<String> parts = List.of(plain.split(" "));
    assertEquals(6, parts.size(), "id, csrf, expiry, last seen, DPoP key, token");
    assertEquals(128, parts.get(4).length(), "the session's key, sealed with it");
    return parts.get(5);
  }
}
