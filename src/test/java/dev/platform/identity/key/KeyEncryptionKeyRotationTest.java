package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.TestNodes.Node;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/operating.md "Rotating the key-encryption key", run on two nodes of one database: 1. the new
 * key as decrypt-only everywhere, 2. the new key current everywhere (the rows are sealed anew), 3.
 * once the count is 0 on every node, the old key removed. Tokens signed before and after verify
 * throughout, and the rotation never changes the signing key.
 */
class KeyEncryptionKeyRotationTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final byte[] TOKEN = "header.payload".getBytes(StandardCharsets.US_ASCII);

  private final MutableClock clock = new MutableClock(START);
  private final String database = TestNodes.newDatabase();
  private final String oldKey = TestNodes.randomKey();
  private final String newKey = TestNodes.randomKey();
  private final Map<String, Node> nodes = new HashMap<>();

  @AfterEach
  void closeNodes() {
    nodes.values().forEach(Node::close);
  }

  @Test
  void whenTheTwoPhaseProcedureRunsThenTokensVerifyThroughoutAndTheCountReachesZeroAtTheEnd()
      throws Exception {
    Settings before = KeyResealTest.settings(oldKey, null);
    Settings phase1 = KeyResealTest.settings(oldKey, newKey);
    Settings phase2 = KeyResealTest.settings(newKey, oldKey);
    Settings phase3 = KeyResealTest.settings(newKey, null);
    String oldId = KeyEncryptionKey.idOf(before.secrets().keyEncryptionKey());
    String newId = KeyEncryptionKey.idOf(phase3.secrets().keyEncryptionKey());

    restart("a", before);
    restart("b", before);
    String kid = node("a").ring().current().kid();
    byte[] signedBefore = sign(node("a"));
    assertCounts(0, 0);

    // Phase 1: the new key as decrypt-only on every node; nothing is resealed.
    restart("a", phase1);
    restart("b", phase1);
    assertCounts(0, 0);
    assertEquals(oldId, node("b").keys().all().get(0).kekId());

    // Phase 2, half-way: A has the new current key and reseals every row; B, not restarted yet,
    // reseals them back on its next refresh, so the two never both count 0.
    try (LogCapture log = LogCapture.of(KeyRotation.class.getName())) {
      restart("a", phase2);
      assertTrue(
          log.messages().stream()
              .anyMatch(line -> line.contains(newId) && line.contains("under " + oldId)),
          log.messages().toString());
      assertTrue(log.messages().stream().noneMatch(line -> line.contains(newKey)));
    }
    assertEquals(newId, node("a").keys().all().get(0).kekId());
    node("b").rotation().rotateIfDue();
    node("a").ring().refresh();
    assertTrue(node("a").ring().sealedUnderPreviousKeys() > 0, "the mixed state shows");
    assertSigningAndVerifying(kid, signedBefore);
    Settings tooEarly = phase3;
    try (Node early = TestNodes.node(database, tooEarly, clock)) {
      IllegalStateException failure =
          assertThrows(IllegalStateException.class, () -> early.rotation().start());
      assertTrue(failure.getMessage().contains(oldId), failure.getMessage());
    }

    // Phase 2, done: every node's current key is the new one; the count reaches 0 on both.
    restart("b", phase2);
    node("a").rotation().rotateIfDue();
    assertCounts(0, 0);
    assertEquals(newId, node("a").keys().all().get(0).kekId());
    assertSigningAndVerifying(kid, signedBefore);

    // Phase 3: the old key removed from every node.
    restart("a", phase3);
    restart("b", phase3);
    assertCounts(0, 0);
    assertSigningAndVerifying(kid, signedBefore);
  }

  private void restart(String name, Settings settings) {
    Node stopped = nodes.remove(name);
    if (stopped != null) {
      stopped.close();
    }
    Node started = TestNodes.node(database, settings, clock);
    nodes.put(name, started);
    started.rotation().start();
  }

  private Node node(String name) {
    return nodes.get(name);
  }

  private void assertCounts(int a, int b) {
    assertEquals(a, node("a").ring().sealedUnderPreviousKeys(), "node A's count");
    assertEquals(b, node("b").ring().sealedUnderPreviousKeys(), "node B's count");
  }

  /** Both nodes sign with {@code kid}, and verify each other's tokens and the first one. */
  private void assertSigningAndVerifying(String kid, byte[] signedBefore)
      throws GeneralSecurityException {
    for (Node signer : nodes.values()) {
      assertEquals(kid, signer.ring().current().kid(), "the rotation changes no signing key");
      byte[] signed = sign(signer);
      for (Node verifier : nodes.values()) {
        assertTrue(verify(verifier, kid, signed));
        assertTrue(verify(verifier, kid, signedBefore));
      }
    }
  }

  private static byte[] sign(Node node) throws GeneralSecurityException {
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(node.ring().current().privateKey());
    signer.update(TOKEN);
    return signer.sign();
  }

  private static boolean verify(Node node, String kid, byte[] signature)
      throws GeneralSecurityException {
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(node.ring().publicKey(kid).orElseThrow());
    verifier.update(TOKEN);
    return verifier.verify(signature);
  }
}
