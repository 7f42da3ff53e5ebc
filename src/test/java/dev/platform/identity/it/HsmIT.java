package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.identity.hsm.SoftHsm;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: one launcher (H2) whose new signing keys are made in a SoftHSM token: they sign, are
 * published, are found by a second process, never leave the token, are rotated inside it, leave it
 * when revoked, and keep signing after a restart; the database holds no private key for them.
 */
@EnabledIfSystemProperty(named = SoftHsm.LIBRARY_PROPERTY, matches = ".+")
class HsmIT {
  @TempDir Path folder;

  @Test
  void whenKeysLiveInTheTokenThenTheySignRotateLeaveWhenRevokedAndSurviveARestart()
      throws Exception {
    SoftHsm hsm = SoftHsm.in(folder.resolve("hsm"));
    SoftHsm.Token token = hsm.initToken("identity");
    Map<String, String> entries = HsmNode.tokenEntries(token);
    entries.remove("identity/pkcs11Pin");
    entries.put("identity/pkcs11PinFile", HsmNode.pinFile(folder.resolve("pin")).toString());
    Path context = HsmNode.context(folder.resolve("context.xml"), entries);
    Path data = folder.resolve("data");
    HsmNode.Credentials admin;
    String current;
    try (HsmNode node = HsmNode.start(hsm, data, context)) {
      assertTrue(node.awaitReady(), node.output());
      assertSigningKeyUp(node);
      admin = node.printedAdmin();
      String first = node.token(admin);
      String firstKid = HsmNode.kid(first);
      assertEquals(List.of(firstKid), node.publishedKids());
      node.assertVerifies(first, admin.id());
      assertInTokenOnly(hsm, token, firstKid);

      current = node.rotateNow(first);
      assertNotEquals(firstKid, current);
      String second = node.token(admin);
      assertEquals(current, HsmNode.kid(second));
      node.assertVerifies(second, admin.id());
      assertInTokenOnly(hsm, token, current);
      assertTrue(HsmProbe.entries(hsm, token.slot()).containsKey(firstKid), "not revoked yet");

      HttpResponse<String> revoked =
          node.http.admin("POST", "/signing-keys/" + firstKid + "/revoke", second, null);
      assertEquals(200, revoked.statusCode(), revoked.body());
      assertFalse(node.publishedKids().contains(firstKid));
      assertTrue(
          HsmNode.eventually(
              () -> !HsmProbe.entries(hsm, token.slot()).containsKey(firstKid),
              Duration.ofSeconds(60)),
          "the revoked key's objects are deleted from the token, two refreshes and 5 s later");
      assertTrue(HsmProbe.entries(hsm, token.slot()).get(current).inToken());
      assertFalse(node.output().contains(SoftHsm.PIN), "the PIN is never logged");
    }

    try (HsmNode restarted = HsmNode.start(hsm, data, context)) {
      assertTrue(restarted.awaitReady(), restarted.output());
      assertSigningKeyUp(restarted);
      String again = restarted.token(admin);
      assertEquals(current, HsmNode.kid(again), "the same key signs after a restart");
      restarted.assertVerifies(again, admin.id());
    }

    Map<String, String[]> rows = keyRows(data);
    assertTrue(rows.containsKey(current), rows.keySet().toString());
    rows.forEach(
        (kid, row) -> {
          assertEquals("pkcs11", row[0], kid + ": private_key_home");
          assertNull(row[1], kid + ": private_key");
          assertNull(row[2], kid + ": private_key_nonce");
        });
  }

  /** {@code GET /health/ready}: 200, the signing key UP. */
  static void assertSigningKeyUp(HsmNode node) {
    HttpResponse<String> ready = node.readiness();
    assertEquals(200, ready.statusCode(), ready.body());
    JsonNode health = Http.json(ready);
    assertEquals("UP", health.path("status").asText(), ready.body());
    assertEquals("UP", health.path("signing_key").asText(), ready.body());
  }

  /**
   * A second process opening the token finds {@code kid} as a private key entry whose key cannot be
   * read out (no encoding, no RSA key spec) and signs inside the token.
   */
  static void assertInTokenOnly(SoftHsm hsm, SoftHsm.Token token, String kid) throws Exception {
    Map<String, HsmProbe.Entry> entries = HsmProbe.entries(hsm, token.slot());
    HsmProbe.Entry entry = entries.get(kid);
    assertTrue(entry != null, kid + " is in the token: " + entries.keySet());
    assertTrue(entry.privateKey(), entry.line());
    assertTrue(entry.encodingRefused(), "no encoding: " + entry.line());
    assertTrue(entry.specRefused(), "no RSA key spec: " + entry.line());
    assertTrue(entry.signs(), entry.line());
  }

  /**
   * The signing_key rows of the launcher's H2 file, by kid: private_key_home, private_key and
   * private_key_nonce.
   */
  static Map<String, String[]> keyRows(Path data) throws Exception {
    Map<String, String[]> rows = new LinkedHashMap<>();
    try (Connection connection =
            DriverManager.getConnection("jdbc:h2:file:" + data.resolve("identity"), "sa", "");
        ResultSet result =
            connection
                .createStatement()
                .executeQuery(
                    "select kid, private_key_home, private_key, private_key_nonce from signing_key")) {
      while (result.next()) {
        rows.put(
            result.getString(1),
            new String[] {result.getString(2), result.getString(3), result.getString(4)});
      }
    }
    return rows;
  }
}
