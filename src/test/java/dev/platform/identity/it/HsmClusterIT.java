package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.db.FreshPostgres;
import dev.platform.identity.hsm.SoftHsm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two nodes on one PostgreSQL database and one SoftHSM token: the second finds the key the first
 * made in the token and signs with it; after a rotation on node A, node B finds the new key in the
 * token (its KeyStore reloaded on the unknown kid) and signs with it.
 *
 * <p>Node B starts once node A is ready. SoftHSM2's file store can miss, for a long time, an object
 * that one process makes while another process is initialising the same token (started at the same
 * moment, B sometimes did not find A's first key in 30 s); a network HSM has no such window. Two
 * nodes racing for the first key, one winning, is {@code Pkcs11KeysIT}'s, in one process.
 */
@EnabledIfSystemProperty(named = SoftHsm.LIBRARY_PROPERTY, matches = ".+")
@EnabledIfSystemProperty(named = "identity.postgres.url", matches = ".+")
class HsmClusterIT {
  @TempDir Path folder;

  @Test
  void whenTwoNodesShareOneTokenThenOneKeyIsMadeAndARotationReachesTheOtherNode() throws Exception {
    SoftHsm hsm = SoftHsm.in(folder.resolve("hsm"));
    SoftHsm.Token token = hsm.initToken("identity");
    try (FreshPostgres database = FreshPostgres.create("identity_hsm")) {
      Path context = folder.resolve("context.xml");
      String postgres = ClusterIT.contextXml(database);
      Files.writeString(
          context,
          postgres.replace(
              "</Context>", HsmNode.environment(HsmNode.pkcs11Entries(token)) + "</Context>"));
      try (HsmNode a = HsmNode.start(hsm, folder.resolve("a"), context)) {
        assertTrue(a.awaitReady(), a.output());
        try (HsmNode b = HsmNode.start(hsm, folder.resolve("b"), context)) {
          assertTrue(b.awaitReady(), b.output());
          twoNodes(hsm, token, a, b);
        }
      }
    }
  }

  private static void twoNodes(SoftHsm hsm, SoftHsm.Token token, HsmNode a, HsmNode b)
      throws Exception {
    HsmNode.Credentials admin = printedOnce(a, b);

    List<String> kids = a.publishedKids();
    assertEquals(1, kids.size(), "one key for both nodes: " + kids);
    assertEquals(kids, b.publishedKids());
    String first = kids.get(0);
    assertEquals(
        Set.of(first),
        HsmProbe.entries(hsm, token.slot()).keySet(),
        "the token holds that one key and no other");
    HsmIT.assertInTokenOnly(hsm, token, first);
    for (HsmNode signer : List.of(a, b)) {
      String issued = signer.token(admin);
      assertEquals(first, HsmNode.kid(issued));
      a.assertVerifies(issued, admin.id());
      b.assertVerifies(issued, admin.id());
    }

    String rotated = a.rotateNow(a.token(admin));
    assertNotEquals(first, rotated);
    // Polled on the key list first: the token endpoint's budget (60 a minute) is shared.
    assertTrue(
        HsmNode.eventually(() -> b.publishedKids().contains(rotated), Duration.ofSeconds(15)),
        "node B's key ring has the key node A made");
    assertTrue(
        HsmNode.eventually(
            () -> rotated.equals(HsmNode.kid(b.token(admin))), Duration.ofSeconds(5)),
        "node B signs with the key node A made in the token");
    String fromB = b.token(admin);
    a.assertVerifies(fromB, admin.id());
    b.assertVerifies(fromB, admin.id());
    HsmIT.assertInTokenOnly(hsm, token, rotated);
  }

  /** The bootstrap administrator, printed by exactly one of the two nodes. */
  static HsmNode.Credentials printedOnce(HsmNode a, HsmNode b) {
    String printed = a.output() + "\n" + b.output();
    Matcher secret = LauncherIT.SECRET.matcher(printed);
    assertTrue(secret.find(), printed);
    assertTrue(!secret.find(), "the bootstrap administrator was generated twice");
    return a.output().contains("client_secret:") ? a.printedAdmin() : b.printedAdmin();
  }
}
