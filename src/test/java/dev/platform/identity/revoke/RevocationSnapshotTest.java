package dev.platform.identity.revoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class RevocationSnapshotTest {
  private static final String ISSUER = "http://127.0.0.1:8080";
  private static final Instant NOW = Instant.parse("2026-11-27T10:00:00.400Z");
  private static final Duration DAY = Duration.ofHours(24);
  private static final String CLIENT = "7f3b1c2e-8a4d-4e5f-9a6b-1c2d3e4f5a6b";
  private static final String JTI = "0f8e3c6a-2b4d-4c1e-8f7a-9b0c1d2e3f4a";

  @Test
  void whenJtiIsListedThenOnlyThatTokenIsRevoked() {
    RevocationSnapshot snapshot =
        RevocationSnapshot.empty(ISSUER)
            .with(new RevokedToken(JTI, CLIENT, NOW.plusSeconds(60)), NOW);

    assertTrue(snapshot.isRevoked(CLIENT, JTI, NOW.minusSeconds(5)));
    assertFalse(snapshot.isRevoked(CLIENT, "another-jti", NOW.minusSeconds(5)));
  }

  @Test
  void whenAccountIsCutOffThenTokensOfItsSecondAndBeforeAreRevokedAndLaterOnesAreNot() {
    AccountCutoff cutoff = AccountCutoff.at(CLIENT, NOW, DAY);
    RevocationSnapshot snapshot = RevocationSnapshot.empty(ISSUER).with(cutoff, NOW);

    assertEquals(Instant.parse("2026-11-27T10:00:01Z"), cutoff.notBefore());
    assertEquals(cutoff.notBefore().plus(DAY), cutoff.until());
    assertTrue(snapshot.isRevoked(CLIENT, JTI, Instant.parse("2026-11-27T09:59:59Z")));
    // iat is whole seconds: a token of the cut-off's own second is covered
    assertTrue(snapshot.isRevoked(CLIENT, JTI, Instant.parse("2026-11-27T10:00:00Z")));
    assertFalse(snapshot.isRevoked(CLIENT, JTI, Instant.parse("2026-11-27T10:00:01Z")));
    assertTrue(snapshot.isRevoked(CLIENT.toUpperCase(), JTI, NOW.minusSeconds(1)));
    assertTrue(snapshot.isRevoked(CLIENT, JTI, null), "a token without iat is covered");
    assertFalse(snapshot.isRevoked("another-client", JTI, NOW.minusSeconds(1)));
  }

  @Test
  void whenEntriesExpireThenTheyLeaveTheSnapshotAndTheFeed() throws Exception {
    RevocationSnapshot snapshot =
        RevocationSnapshot.empty(ISSUER)
            .with(new RevokedToken(JTI, CLIENT, NOW.plusSeconds(60)), NOW)
            .with(AccountCutoff.at(CLIENT, NOW, DAY), NOW);

    assertSame(snapshot, snapshot.pruned(NOW.plusSeconds(59)), "nothing expired: no rebuild");
    RevocationSnapshot later = snapshot.pruned(NOW.plusSeconds(60));
    assertFalse(later.isRevoked("other", JTI, NOW));
    assertEquals(0, feed(later).get("tokens").size());
    assertEquals(1, feed(later).get("accounts").size());
    RevocationSnapshot dayLater = later.pruned(NOW.plus(DAY).plusSeconds(1));
    assertEquals(0, feed(dayLater).get("accounts").size());
    assertFalse(dayLater.isRevoked(CLIENT, JTI, NOW.minusSeconds(10)));
  }

  @Test
  void whenFeedIsMadeThenItHasTheWireShapeAndAHashedSub() throws Exception {
    AccountCutoff cutoff = AccountCutoff.at(CLIENT, NOW, DAY);
    RevocationSnapshot snapshot =
        RevocationSnapshot.empty(ISSUER)
            .with(new RevokedToken(JTI, CLIENT, NOW.plusSeconds(60)), NOW)
            .with(cutoff, NOW);

    JsonNode feed = feed(snapshot);
    assertEquals(ISSUER, feed.get("issuer").asText());
    assertEquals(JTI, feed.get("tokens").get(0).get("jti").asText());
    assertEquals(
        NOW.plusSeconds(60).getEpochSecond(), feed.get("tokens").get(0).get("exp").asLong());
    JsonNode account = feed.get("accounts").get(0);
    String expected =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(
                MessageDigest.getInstance("SHA-256")
                    .digest(CLIENT.getBytes(StandardCharsets.UTF_8)));
    assertEquals(expected, account.get("sub_sha256").asText());
    assertEquals(cutoff.notBefore().getEpochSecond(), account.get("not_before").asLong());
    assertEquals(cutoff.until().getEpochSecond(), account.get("until").asLong());
    assertFalse(new String(snapshot.feed().body(), StandardCharsets.UTF_8).contains(CLIENT));
  }

  @Test
  void whenTheSameRevocationsArriveInAnotherOrderThenTheEtagIsTheSameAndAChangeMovesIt() {
    RevokedToken one = new RevokedToken(JTI, CLIENT, NOW.plusSeconds(60));
    RevokedToken two = new RevokedToken("1" + JTI.substring(1), CLIENT, NOW.plusSeconds(90));
    RevocationSnapshot a = RevocationSnapshot.of(ISSUER, 1, List.of(one, two), List.of(), NOW);
    RevocationSnapshot b = RevocationSnapshot.of(ISSUER, 2, List.of(two, one), List.of(), NOW);

    assertEquals(a.feed().etag(), b.feed().etag());
    assertTrue(a.feed().etag().startsWith("\"") && a.feed().etag().endsWith("\""));
    assertNotEquals(a.feed().etag(), a.with(AccountCutoff.at(CLIENT, NOW, DAY), NOW).feed().etag());
  }

  @Test
  void whenIfNoneMatchNamesTheEtagThenItMatches() {
    assertTrue(RevocationsServlet.matches("\"abc\"", "\"abc\""));
    assertTrue(RevocationsServlet.matches("W/\"abc\"", "\"abc\""));
    assertTrue(RevocationsServlet.matches("\"x\", \"abc\"", "\"abc\""));
    assertTrue(RevocationsServlet.matches("*", "\"abc\""));
    assertFalse(RevocationsServlet.matches("\"abd\"", "\"abc\""));
    assertFalse(RevocationsServlet.matches(null, "\"abc\""));
  }

  private static JsonNode feed(RevocationSnapshot snapshot) throws Exception {
    return new ObjectMapper().readTree(snapshot.feed().body());
  }
}
