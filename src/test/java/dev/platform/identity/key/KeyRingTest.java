package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.http.ErrorBody;
import dev.platform.identity.key.KeyRing.Cached;
import dev.platform.identity.key.TestNodes.Node;
import dev.platform.identity.web.Json;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeyRingTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MutableClock clock = new MutableClock(START);
  private final Settings settings = TestNodes.settings();
  private Node node;

  @BeforeEach
  void startNode() {
    node = TestNodes.node(TestNodes.newDatabase(), settings, clock);
    node.rotation().rotateIfDue();
  }

  @AfterEach
  void stopNode() {
    node.close();
  }

  @Test
  void whenSignedWithCurrentKeyThenVerifiesWithPublicKeyRebuiltFromTheJwk() throws Exception {
    CurrentKey current = node.ring().current();
    byte[] data = "header.payload".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(current.privateKey());
    signer.update(data);
    byte[] signature = signer.sign();

    JsonNode jwk = onlyKey();
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(fromJwk(jwk));
    verifier.update(data);

    assertTrue(verifier.verify(signature));
    assertEquals(current.kid(), jwk.get("kid").asText());
  }

  @Test
  void whenListedThenJwkHasExactlyThePublicMembersInMinimalBase64UrlUInt() throws Exception {
    JwkAssertions.assertPublicRsaSigningKey(onlyKey());
  }

  @Test
  void whenValueHasHighBitThenBase64UrlUIntDropsTheSignByte() {
    assertEquals("_w", Jwk.base64UrlUInt(BigInteger.valueOf(255)));
    assertEquals("AQAB", Jwk.base64UrlUInt(BigInteger.valueOf(65537)));
    assertEquals("AA", Jwk.base64UrlUInt(BigInteger.ZERO));
  }

  @Test
  void whenLookedUpThenPemIsTheSameKeyAsTheJwk() throws Exception {
    JsonNode jwk = onlyKey();
    PublicKeyRecord record = node.ring().lookup(jwk.get("kid").asText()).orElseThrow().body();

    String pem = record.publicKey();
    assertTrue(pem.startsWith("-----BEGIN PUBLIC KEY-----\n"), pem);
    assertTrue(pem.endsWith("\n-----END PUBLIC KEY-----\n"), pem);
    String[] lines = pem.split("\n");
    for (int i = 1; i < lines.length - 2; i++) {
      assertEquals(64, lines[i].length(), "line " + i);
    }
    assertEquals(fromJwk(jwk), fromPem(pem));
    assertEquals("RS256", record.algorithm());
    assertEquals(START.toString(), record.activeFrom());
    assertEquals(null, record.expiresAt());
    assertTrue(record.isCurrent());
  }

  @Test
  void whenRecordWrittenAsJsonThenSpecFieldNames() throws Exception {
    PublicKeyRecord record = node.ring().lookup(node.ring().current().kid()).orElseThrow().body();
    ObjectMapper web = new Json().getContext(PublicKeyRecord.class);

    JsonNode json = JSON.readTree(web.writeValueAsBytes(record));

    List<String> members = new ArrayList<>();
    json.fieldNames().forEachRemaining(members::add);
    assertEquals(
        Set.of("key_id", "public_key", "algorithm", "active_from", "expires_at", "is_current"),
        Set.copyOf(members));
    assertTrue(json.get("expires_at").isNull());
    assertTrue(json.get("is_current").asBoolean());
    assertEquals("2026-01-01T00:00:00Z", json.get("active_from").asText());
  }

  @Test
  void whenNothingChangesThenBodyAndPrivateKeyAreReused() {
    Cached<byte[]> first = node.ring().published();
    CurrentKey current = node.ring().current();
    clock.advance(Duration.ofDays(1));
    node.ring().refresh();

    assertSame(first.body(), node.ring().published().body(), "serialized once");
    assertSame(current.privateKey(), node.ring().current().privateKey(), "decrypted once");
  }

  @Test
  void whenListIsStableThenCachedForAnHour() {
    assertEquals(Duration.ofHours(1), node.ring().published().maxAge());
  }

  @Test
  void whenAKeyLeavesTheListSoonThenCacheEndsWhenItLeaves() {
    SigningKey rotated = node.rotation().rotate(true);
    Instant oldExpiry =
        rotated.activeFrom().plus(Duration.ofSeconds(30)).plus(Duration.ofHours(25));
    clock.set(oldExpiry.minus(Duration.ofMinutes(20)).minusMillis(500));

    assertEquals(Duration.ofMinutes(20).plusMillis(500), node.ring().published().maxAge());
    assertEquals("public, max-age=1200", PublicKeysResource.cacheControl(node.ring().published()));
  }

  @Test
  void whenPrePublicationIsShortThenCacheTimeLeavesRoomForOneRefresh() {
    Settings shortNotice =
        TestNodes.settings(
            Map.of(
                JndiSettings.KEY_PRE_PUBLICATION, "PT1H", JndiSettings.KEY_RING_REFRESH, "PT1M"));
    try (Node other = TestNodes.node(TestNodes.newDatabase(), shortNotice, clock)) {
      other.rotation().rotateIfDue();

      assertEquals(Duration.ofMinutes(59), other.ring().published().maxAge());
    }
  }

  @Test
  void whenAKeyIsAboutToSignThenItsRecordIsCachedOnlyUntilThen() {
    SigningKey next = node.rotation().rotate();
    clock.set(next.activeFrom().minusSeconds(90));

    Cached<PublicKeyRecord> record = node.ring().lookup(next.kid()).orElseThrow();

    assertEquals(Duration.ofSeconds(90), record.maxAge());
    assertEquals(false, record.body().isCurrent());
    clock.set(next.activeFrom());
    assertTrue(node.ring().lookup(next.kid()).orElseThrow().body().isCurrent());
  }

  @Test
  void whenKidUnknownThenResourceAnswers404WithSpecBody() {
    PublicKeysResource resource = new PublicKeysResource(node.ring());

    UnknownKeyException unknown =
        assertThrows(UnknownKeyException.class, () -> resource.find("no-such-kid"));
    jakarta.ws.rs.core.Response response = new UnknownKeyMapper().toResponse(unknown);

    assertEquals(404, response.getStatus());
    assertEquals(new ErrorBody("Key not found or expired"), response.getEntity());
  }

  @Test
  void whenRingNeverLoadedThenCurrentFailsClearly() {
    KeyRing empty =
        new KeyRing(
            node.keys(),
            new KeyEncryption(settings.secrets().keyEncryptionKey(), TestNodes.RANDOM),
            settings.keys().schedule(),
            clock);

    assertThrows(IllegalStateException.class, empty::current);
  }

  private JsonNode onlyKey() throws Exception {
    JsonNode keys = JSON.readTree(node.ring().published().body()).get("keys");
    assertEquals(1, keys.size());
    return keys.get(0);
  }

  static PublicKey fromJwk(JsonNode jwk) throws Exception {
    BigInteger n = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.get("n").asText()));
    BigInteger e = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.get("e").asText()));
    return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e));
  }

  static PublicKey fromPem(String pem) throws Exception {
    String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA")
        .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(body)));
  }

  @Test
  void whenTheSuccessorIsScheduledThenTheStateShowsBothKeysAndTheTimesBetween() {
    KeyRingState first = node.ring().state();
    assertEquals(1, first.listed());
    assertEquals(0.0, first.currentSigningSeconds());
    assertEquals(Duration.ofDays(90).toSeconds(), first.secondsUntilPlannedEnd());
    assertTrue(Double.isNaN(first.secondsUntilNextActivation()));

    clock.set(START.plus(Duration.ofDays(89)).plus(Duration.ofHours(1)));
    node.rotation().rotateIfDue();
    clock.advance(Duration.ofSeconds(10));
    KeyRingState second = node.ring().state();

    assertEquals(2, second.listed());
    assertEquals(
        Duration.ofDays(89).plusHours(1).plusSeconds(10).toSeconds(),
        second.currentSigningSeconds());
    double untilEnd = Duration.ofHours(23).minusSeconds(10).toSeconds();
    assertEquals(untilEnd, second.secondsUntilPlannedEnd());
    // Created an hour into the pre-publication window, it signs one full pre-publication later.
    assertEquals(
        Duration.ofHours(24).minusSeconds(10).toSeconds(), second.secondsUntilNextActivation());
    assertEquals(10.0, second.secondsSinceRefresh());
  }
}
