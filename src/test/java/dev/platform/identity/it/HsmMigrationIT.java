package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.hsm.SoftHsm;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: a deployment moves from keys in the database to keys in the token without an outage.
 * Its key A keeps signing after the restart with {@code keyStore=pkcs11}; the next rotation makes
 * key B inside the token; tokens of both verify.
 */
@EnabledIfSystemProperty(named = SoftHsm.LIBRARY_PROPERTY, matches = ".+")
class HsmMigrationIT {
  @TempDir Path folder;

  @Test
  void whenSwitchedFromDatabaseToPkcs11ThenTheOldKeySignsOnAndTheNextIsMadeInTheToken()
      throws Exception {
    SoftHsm hsm = SoftHsm.in(folder.resolve("hsm"));
    Path data = folder.resolve("data");
    HsmNode.Credentials admin;
    String kidA;
    String kidB;
    Path inDatabase = HsmNode.context(folder.resolve("database.xml"), HsmNode.baseEntries());
    try (HsmNode node = HsmNode.start(hsm, data, inDatabase)) {
      assertTrue(node.awaitReady(), node.output());
      admin = node.printedAdmin();
      kidA = HsmNode.kid(node.token(admin));
    }

    SoftHsm.Token token = hsm.initToken("identity");
    Path inToken = HsmNode.context(folder.resolve("pkcs11.xml"), HsmNode.tokenEntries(token));
    try (HsmNode node = HsmNode.start(hsm, data, inToken)) {
      assertTrue(node.awaitReady(), node.output());
      HsmIT.assertSigningKeyUp(node);
      String tokenA = node.token(admin);
      assertEquals(kidA, HsmNode.kid(tokenA), "the database's key still signs: no outage");
      assertTrue(node.publishedKids().contains(kidA), node.publishedKids().toString());
      assertTrue(HsmProbe.entries(hsm, token.slot()).isEmpty(), "nothing made in the token yet");

      kidB = node.rotateNow(tokenA);
      assertNotEquals(kidA, kidB);
      Map<String, HsmProbe.Entry> inTheToken = HsmProbe.entries(hsm, token.slot());
      assertEquals(Set.of(kidB), inTheToken.keySet(), "B in the token, A not");
      HsmIT.assertInTokenOnly(hsm, token, kidB);
      String tokenB = node.token(admin);
      assertEquals(kidB, HsmNode.kid(tokenB));
      node.assertVerifies(tokenA, admin.id());
      node.assertVerifies(tokenB, admin.id());
      assertFalse(node.output().contains(SoftHsm.PIN), "the PIN is never logged");
    }

    Map<String, String[]> rows = HsmIT.keyRows(data);
    assertEquals("database", rows.get(kidA)[0], "A stays sealed in the database");
    assertNotNull(rows.get(kidA)[1]);
    assertEquals("pkcs11", rows.get(kidB)[0], "B is in the token");
    assertNull(rows.get(kidB)[1]);
    assertNull(rows.get(kidB)[2]);
  }
}
