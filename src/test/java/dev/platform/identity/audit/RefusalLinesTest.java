package dev.platform.identity.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.key.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 35: refusals written in full once per kind, client and minute, the rest as a count. */
class RefusalLinesTest {
  static final String CLIENT = "0d9c8b7a-6f5e-4d3c-8b2a-190817161514";
  static final String ADDRESS = "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff";

  /** The longest line a refusal or a count writes, for the bound of docs/rate-limits.md. */
  static final int MAX_LINE = 400;

  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T10:00:30Z"));
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final AuditLog audit = new AuditLog(clock, registry, null);
  final LogCapture capture = LogCapture.of(AuditLog.LOGGER);

  @AfterEach
  void release() {
    capture.close();
  }

  void refuse(String clientId, String outcome) {
    audit.refused(
        "token.refuse",
        clientId,
        outcome,
        ADDRESS,
        Map.of("method", "client_secret_basic", "reason", "The client secret has expired"));
  }

  static JsonNode json(String line) throws Exception {
    return new ObjectMapper().readTree(line);
  }

  double counted(String written) {
    return registry
        .get("identity.audit.refusals")
        .tags("event", "token.refuse", "written", written)
        .counter()
        .count();
  }

  @Test
  void whenTenThousandRefusalsComeInAMinuteThenTwoLinesCarryThemAll() throws Exception {
    for (int i = 0; i < 10_000; i++) {
      refuse(CLIENT, "invalid_client");
    }
    assertEquals(1, capture.messages().size(), "the first, in full");

    clock.advance(Duration.ofMinutes(1));
    audit.endMinutes();

    List<String> lines = capture.messages();
    assertEquals(2, lines.size());
    JsonNode first = json(lines.get(0));
    assertEquals("token.refuse", first.get("event").asText());
    assertEquals(CLIENT, first.get("actor").asText());
    assertEquals("client_secret_basic", first.get("method").asText());
    JsonNode count = json(lines.get(1));
    assertEquals("token.refuse.repeated", count.get("event").asText());
    assertEquals(CLIENT, count.get("actor").asText());
    assertEquals("invalid_client", count.get("outcome").asText());
    assertEquals("9999", count.get("count").asText());
    assertEquals("2026-06-01T10:00:00Z", count.get("window_start").asText());
    assertEquals(1, counted("full"));
    assertEquals(9999, counted("folded"));
  }

  @Test
  void whenTheMinuteEndsThenTheNextRefusalWritesTheCountBeforeItsOwnLine() throws Exception {
    for (int i = 0; i < 5; i++) {
      refuse(CLIENT, "rate_limit_exceeded");
    }

    clock.advance(Duration.ofSeconds(30));
    refuse(CLIENT, "rate_limit_exceeded");

    List<String> lines = capture.messages();
    assertEquals(3, lines.size());
    assertEquals("4", json(lines.get(1)).get("count").asText());
    assertEquals("token.refuse", json(lines.get(2)).get("event").asText());
  }

  @Test
  void whenKindsDifferThenEachHasItsFirstLineAndNoCountIsWrittenForASingleRefusal() {
    refuse(CLIENT, "invalid_client");
    refuse(CLIENT, "invalid_scope");
    refuse(null, "invalid_request");

    clock.advance(Duration.ofMinutes(2));
    audit.endMinutes();

    assertEquals(3, capture.messages().size(), capture.messages().toString());
  }

  @Test
  void whenRandomClientIdsFloodFromOneAddressThenItsLinesStayWithinItsShare() throws Exception {
    int flood = 3 * RefusalTally.KEYS_PER_ADDRESS;
    for (int i = 0; i < flood; i++) {
      refuse(UUID.randomUUID().toString(), "invalid_client");
      refuse(UUID.randomUUID().toString(), "invalid_client");
    }
    clock.advance(Duration.ofMinutes(1));
    audit.endMinutes();

    List<String> lines = capture.messages();
    assertEquals(RefusalTally.KEYS_PER_ADDRESS + 1, lines.size());
    JsonNode untracked = json(lines.get(lines.size() - 1));
    assertEquals(RefusalTally.UNTRACKED, untracked.get("subjects").asText());
    assertEquals(ADDRESS, untracked.get("remote").asText());
    assertEquals(
        Integer.toString(2 * flood - RefusalTally.KEYS_PER_ADDRESS),
        untracked.get("count").asText());
    for (String line : lines) {
      assertTrue(line.getBytes(StandardCharsets.UTF_8).length <= MAX_LINE, line);
    }
  }

  /**
   * The attacker review's case: a flood of random client_ids from one address, then one wrong
   * secret for a real client from another. The victim's refusal is still written in full, naming
   * the client and its address.
   */
  @Test
  void whenOneAddressFloodsThenAnotherAddressesRefusalIsStillWrittenInFull() throws Exception {
    for (int i = 0; i < 2 * RefusalTally.MAX_KEYS; i++) {
      audit.refused(
          "token.refuse", UUID.randomUUID().toString(), "invalid_client", "192.0.2.1", Map.of());
    }
    int before = capture.messages().size();

    audit.refused("token.refuse", CLIENT, "invalid_client", "192.0.2.2", Map.of());

    List<String> all = capture.messages();
    List<String> lines = all.subList(before, all.size());
    assertEquals(1, lines.size(), lines.toString());
    JsonNode line = json(lines.get(0));
    assertEquals(CLIENT, line.get("actor").asText());
    assertEquals("192.0.2.2", line.get("remote").asText());
  }

  @Test
  void whenACountLineIsWrittenThenItIsNoLongerThanTheBoundOfTheDocs() {
    for (int i = 0; i < 3; i++) {
      audit.refused(
          "console.signin.refuse",
          CLIENT,
          "login_form_expired",
          ADDRESS,
          Map.of("reason", "x".repeat(CallerText.MAX_LENGTH)));
    }
    clock.advance(Duration.ofMinutes(1));
    audit.endMinutes();

    for (String line : capture.messages()) {
      assertTrue(line.getBytes(StandardCharsets.UTF_8).length <= MAX_LINE, line);
    }
  }
}
