package dev.platform.identity.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AuditLogTest {
  static final String ACTOR = "0d9c8b7a-6f5e-4d3c-8b2a-190817161514";

  final LogCapture capture = LogCapture.of(AuditLog.LOGGER);
  final AuditLog audit =
      new AuditLog(Clock.fixed(Instant.parse("2026-05-01T10:00:00Z"), ZoneOffset.UTC));

  @AfterEach
  void release() {
    capture.close();
  }

  @Test
  void whenAnEventIsRecordedThenOneJsonLineCarriesEveryField() throws Exception {
    audit.record("account.create", ACTOR, "target-id", "success", "10.0.0.7");

    List<String> lines = capture.messages();
    assertEquals(1, lines.size());
    JsonNode line = new ObjectMapper().readTree(lines.get(0));
    assertEquals("account.create", line.get("event").asText());
    assertEquals(ACTOR, line.get("actor").asText());
    assertEquals("target-id", line.get("target").asText());
    assertEquals("success", line.get("outcome").asText());
    assertEquals("10.0.0.7", line.get("remote").asText());
    assertEquals("2026-05-01T10:00:00Z", line.get("time").asText());
  }

  @Test
  void whenAStrangerSendsALongOrHostileIdThenTheLineStaysOneBoundedJsonLine() throws Exception {
    String hostile = "x\n{\"event\":\"forged\"}" + "y".repeat(5000);

    audit.record("token.refuse", hostile, null, "invalid_client", "127.0.0.1");

    List<String> lines = capture.messages();
    assertEquals(1, lines.size());
    assertTrue(lines.get(0).length() < 400, lines.get(0));
    assertTrue(!lines.get(0).contains("\n"));
    JsonNode line = new ObjectMapper().readTree(lines.get(0));
    assertEquals("token.refuse", line.get("event").asText());
    assertTrue(line.get("target").isNull());
  }

  @Test
  void whenAnIdHoldsUnicodeLineSeparatorsOrBidiControlsThenTheLineIsPrintableAscii()
      throws Exception {
    String hostile = "a\u2028b\u2029c\u0085d\u202Ee\u00e9\u007f";

    audit.record("admin.refuse", ACTOR, hostile, "unauthenticated", "127.0.0.1");

    String line = capture.messages().get(0);
    assertTrue(line.chars().allMatch(c -> c >= 0x20 && c < 0x7f || c == 0x7f), line);
    assertTrue(line.contains("\\u2028") && line.contains("\\u202E"), line);
    assertEquals(hostile, new ObjectMapper().readTree(line).get("target").asText());
  }
}
