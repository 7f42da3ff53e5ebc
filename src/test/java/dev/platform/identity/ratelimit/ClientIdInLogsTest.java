package dev.platform.identity.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.account.AccountProfile;
import dev.platform.identity.account.SecretDigest;
import dev.platform.identity.account.ServiceAccount;
import dev.platform.identity.account.ServiceAccounts;
import dev.platform.identity.audit.AuditEvent;
import dev.platform.identity.audit.AuditEvents;
import dev.platform.identity.audit.AuditLog;
import dev.platform.identity.audit.AuditQuery;
import dev.platform.identity.audit.CallerText;
import dev.platform.identity.audit.LogCapture;
import dev.platform.identity.config.Settings;
import dev.platform.identity.db.TestDatabases;
import dev.platform.identity.key.MutableClock;
import dev.platform.identity.key.TestNodes;
import dev.platform.identity.token.TestEndpoints;
import dev.platform.identity.token.TokenAnswer;
import dev.platform.identity.token.TokenMeters;
import dev.platform.identity.token.TokenServlet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item 4: a client that swaps its client_id and client_secret gets its secret written
 * nowhere. Every way a client-supplied id reaches an audit line, a stored event or a log line is
 * driven here with the swap; {@link CallerText#clientId} is the one mechanism behind all of them.
 */
class ClientIdInLogsTest {
  static final String ADDRESS = "198.51.100.4";
  static final String FORM = "application/x-www-form-urlencoded";

  final Settings settings = TestNodes.settings();
  final TestNodes.Node node =
      TestNodes.node(
          TestDatabases.h2DataSource("client-id-" + UUID.randomUUID()),
          settings,
          Clock.systemUTC());
  final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T00:00:00Z"));
  final AuditEvents trail = new AuditEvents(node.database());
  final AuditLog audit = new AuditLog(clock, new SimpleMeterRegistry(), trail);
  final SecretDigest digest = new SecretDigest(settings.secrets().pepper());
  final UUID id = UUID.randomUUID();
  final String secret = "Zm9vYmFy-" + UUID.randomUUID().toString().replace("-", "");
  final LogCapture everything = LogCapture.of("dev.platform.identity");
  final RateLimitFilter endpoint = endpoint();

  RateLimitFilter endpoint() {
    node.rotation().start();
    new ServiceAccounts(node.database())
        .add(
            ServiceAccount.create(
                id,
                new AccountProfile("swapper", "org", List.of(), List.of("catalog:*"), "catalog"),
                digest.of(secret),
                clock.instant()));
    TokenServlet servlet = TestEndpoints.token(node, settings, clock, Optional.empty(), audit);
    return new RateLimitFilter(
        RateLimiter.inMemory(clock, RateLimiter.SPEC_PER_MINUTE),
        audit,
        servlet,
        TokenMeters.none(),
        new SimpleMeterRegistry());
  }

  @AfterEach
  void close() {
    everything.close();
    node.close();
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  static String basic(String user, String password) {
    String pair = encode(user) + ":" + encode(password);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  String swappedForm() {
    return "grant_type=client_credentials&client_id="
        + encode(secret)
        + "&client_secret="
        + encode(id.toString());
  }

  /** Each place a caller's client_id reaches the audit (or any log), driven with the swap. */
  Map<String, Supplier<String>> places() {
    Map<String, Supplier<String>> places = new LinkedHashMap<>();
    places.put(
        "token endpoint, client_secret_post",
        () -> status(endpoint.answer(swappedForm(), null, ADDRESS)));
    places.put(
        "token endpoint, client_secret_basic (also the console's sign-in)",
        () ->
            status(
                endpoint.answer(
                    "grant_type=client_credentials", basic(secret, id.toString()), ADDRESS)));
    places.put(
        "token endpoint, a request it cannot parse",
        () -> status(endpoint.answer(swappedForm() + "&client_id=" + id, null, ADDRESS)));
    places.put(
        "token endpoint, 429 before the request runs",
        () -> {
          String last = "";
          for (int i = 0; i < 400 && !last.equals("429"); i++) {
            last = status(endpoint.answer(swappedForm(), null, ADDRESS + "0"));
          }
          return last;
        });
    places.put(
        "console sign-in refused (stored)",
        () -> {
          audit.refusedAndStored(
              "console.signin.refuse", secret, "invalid_client", ADDRESS, Map.of());
          return "stored";
        });
    places.put(
        "a stored event (console sign-in, sign-out)",
        () -> {
          audit.stored("console.signin", secret, null, "success", ADDRESS, Map.of());
          return "stored";
        });
    places.put(
        "an administrator's change (AuditLog.source)",
        () -> {
          AuditEvent event =
              audit.source(secret, ADDRESS).event("account.create", null, null, Map.of());
          return event.actor().orElse("");
        });
    places.put(
        "an audit line (AuditLog.record, as AdminAuth writes them)",
        () -> {
          audit.record("admin.refuse", secret, null, "insufficient_scope", ADDRESS);
          return "logged";
        });
    return places;
  }

  static String status(TokenAnswer answer) {
    return Integer.toString(answer.status());
  }

  @Test
  void whenAClientSwapsItsIdAndSecretThenNoLogLineNorStoredEventHoldsTheSecret() throws Exception {
    Map<String, String> results = new LinkedHashMap<>();
    places().forEach((place, drive) -> results.put(place, drive.get()));
    clock.advance(Duration.ofMinutes(1));
    audit.endMinutes();

    assertEquals("401", results.get("token endpoint, client_secret_post"));
    assertEquals(
        "401", results.get("token endpoint, client_secret_basic (also the console's sign-in)"));
    assertEquals("400", results.get("token endpoint, a request it cannot parse"));
    assertEquals("429", results.get("token endpoint, 429 before the request runs"));
    assertEquals(
        CallerText.MALFORMED_CLIENT_ID, results.get("an administrator's change (AuditLog.source)"));
    List<String> lines = everything.messages();
    for (String line : lines) {
      assertFalse(line.contains(secret), "the secret in a log line: " + line);
    }
    long marked =
        lines.stream()
            .filter(line -> line.startsWith("{"))
            .map(ClientIdInLogsTest::actor)
            .filter(CallerText.MALFORMED_CLIENT_ID::equals)
            .count();
    assertTrue(marked >= 5, "the swapped id shows as the marker: " + lines);
    for (AuditEvent stored : storedEvents()) {
      assertFalse(stored.toString().contains(secret));
      assertEquals(Optional.of(CallerText.MALFORMED_CLIENT_ID), stored.actor());
    }
    assertEquals(2, storedEvents().size(), "the console's refusal and the stored event");
  }

  @Test
  void whenTheClientIdHasTheFormOfOneThenItIsWrittenInLowerCaseWhateverItsCase() {
    assertEquals(id.toString(), CallerText.clientId(id.toString().toUpperCase()));
    assertEquals(CallerText.MALFORMED_CLIENT_ID, CallerText.clientId(" " + id));
    assertEquals(CallerText.MALFORMED_CLIENT_ID, CallerText.clientId(id.toString() + "\n"));
    assertEquals(CallerText.MALFORMED_CLIENT_ID, CallerText.clientId(""));
    assertEquals(null, CallerText.clientId(null));
  }

  /** The console's stored events (the key ring's own are there too, with no actor). */
  List<AuditEvent> storedEvents() {
    return trail
        .list(
            new AuditQuery(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                100))
        .events()
        .stream()
        .filter(event -> event.event().startsWith("console."))
        .toList();
  }

  static String actor(String line) {
    try {
      return new ObjectMapper().readTree(line).path("actor").asText("");
    } catch (Exception e) {
      return "";
    }
  }
}
