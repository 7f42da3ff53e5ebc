package dev.platform.identity.it;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, floods of refusals: 16 clients from 127.0.0.1 send a victim's client_id with wrong
 * secrets (401, then 429) to the token endpoint or the console's login, or ask for tokens of their
 * own account far beyond its budget (429), as fast as they are answered. The audit log grows by at
 * most {@link #AUDIT_BOUND_BYTES} in a flood, however many refusals; the victim, from its own
 * address (127.0.0.2), gets every token it asks for.
 */
class RefusalFloodsChaosIT extends ChaosSuite {
  static final int FLOODERS = 16;
  static final Duration FLOOD = Duration.ofSeconds(15);
  static final long LIMIT = 30_000;
  static final long AUDIT_BOUND_BYTES = 128 * 1024;
  static final long P99_MILLIS = 250;
  private static final Pattern NONCE = Pattern.compile("name=\"login_nonce\" value=\"([^\"]+)\"");

  @Test
  void whenWrongSecretsFloodTheTokenEndpointThenTheAuditLogIsBoundedAndTheVictimGetsTokens()
      throws Exception {
    ChaosTarget.Account victim = target.account("chaos-victim");
    String wrong = new ChaosTarget.Account(victim.clientId(), "wrong-secret").form();
    flood("401 flood (wrong secrets)", "token", victim, () -> tokenRequest(wrong));
  }

  @Test
  void whenAnAccountAsksBeyondItsBudgetThenTheAuditLogIsBoundedAndTheVictimGetsTokens()
      throws Exception {
    ChaosTarget.Account victim = target.account("chaos-victim");
    String greedy = target.account("chaos-greedy").form();
    flood("429 flood (beyond the budget)", "token", victim, () -> tokenRequest(greedy));
  }

  @Test
  void whenWrongSecretsFloodTheConsoleLoginThenTheAuditLogIsBoundedAndTheVictimGetsTokens()
      throws Exception {
    ChaosTarget.Account victim = target.account("chaos-victim");
    BoundHttp attacker = new BoundHttp("127.0.0.1", target.port());
    BoundHttp.Exchange form = attacker.get("/console/login", Duration.ofSeconds(10));
    Matcher nonce = NONCE.matcher(form.body());
    if (!nonce.find()) {
      throw new AssertionError("no login form: " + form);
    }
    String cookie = form.setCookie().split(";")[0];
    String body =
        "client_id="
            + victim.clientId()
            + "&client_secret=wrong-secret&login_nonce="
            + URLEncoder.encode(nonce.group(1), StandardCharsets.UTF_8);
    flood(
        "401 flood (wrong secrets)",
        "console login",
        victim,
        () ->
            request("/console/login")
                .header("Cookie", cookie)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
  }

  void flood(String attack, String on, ChaosTarget.Account victim, Supplier<HttpRequest> request)
      throws Exception {
    long auditBefore = target.auditBytes();
    ChaosProbe.Samples figures;
    String crowdFigure;
    try (Crowd crowd = Crowd.start(FLOODERS, Duration.ZERO, LIMIT, request)) {
      try (ChaosProbe probe =
          ChaosProbe.start(
              target,
              ChaosProbe.Call.token(victim),
              ChaosProbe.Call.get("key list", "/api/public-keys"),
              ChaosProbe.Call.token(victim),
              ChaosProbe.Call.get("key list", "/api/public-keys"),
              ChaosProbe.Call.get("key list", "/api/public-keys"))) {
        Thread.sleep(FLOOD.toMillis());
        figures = probe.stop().get("token");
      }
      crowdFigure = crowd.answered() + " requests, answers " + crowd.statuses();
    }
    Thread.sleep(1000); // the last lines out
    long growth = target.auditBytes() - auditBefore;
    ChaosReport.row(attack, on)
        .probe(figures)
        .figure(crowdFigure + "; audit log +" + growth / 1024 + " KiB")
        .check(
            growth <= AUDIT_BOUND_BYTES,
            "audit growth ≤ " + AUDIT_BOUND_BYTES / 1024 + " KiB",
            growth / 1024 + " KiB")
        .check(
            figures.requests() > 0 && figures.successRate() == 100.0,
            "the victim gets its tokens",
            figures)
        .check(figures.percentile(99) < P99_MILLIS, "victim's p99 < " + P99_MILLIS + " ms", figures)
        .record();
  }

  HttpRequest tokenRequest(String form) {
    return request("/oauth/token").POST(HttpRequest.BodyPublishers.ofString(form)).build();
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target.port() + path))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/x-www-form-urlencoded");
  }
}
