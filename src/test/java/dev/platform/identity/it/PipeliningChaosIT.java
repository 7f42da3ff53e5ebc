package dev.platform.identity.it;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, pipelining: 32 connections from 127.0.0.1 each send thousands of requests for the key
 * list (or tokens) back to back and never read an answer, so the service's writes fill their
 * buffers; the probe from 127.0.0.2 still gets its keys and tokens, p99 under 250 ms.
 */
class PipeliningChaosIT extends ChaosSuite {
  static final int CONNECTIONS = 32;
  static final Duration ATTACK = Duration.ofSeconds(12);
  static final long P99_MILLIS = 250;

  @Test
  void whenTheKeyListIsPipelinedWithoutReadingThenTheProbeIsAnsweredInTime() throws Exception {
    attack("key list", Pipeline.request(target.port(), "GET", "/api/public-keys", null), 4000);
  }

  @Test
  void whenTokensArePipelinedWithoutReadingThenTheProbeIsAnsweredInTime() throws Exception {
    ChaosTarget.Account attacker = target.account("chaos-pipeliner");
    attack("token", Pipeline.request(target.port(), "POST", "/oauth/token", attacker.form()), 1000);
  }

  void attack(String on, String request, int requests) throws Exception {
    ChaosTarget.Account probeAccount = target.account("chaos-probe");
    ChaosProbe.Samples figures;
    String figure;
    try (Pipeline pipeline = Pipeline.start(target.port(), CONNECTIONS, requests, request)) {
      try (ChaosProbe probe = ChaosProbe.keysAndTokens(target, probeAccount)) {
        Thread.sleep(ATTACK.toMillis());
        figures = probe.stop().get("all");
      }
      figure = pipeline.figure();
    }
    boolean recovered = target.awaitAnswering();
    ChaosReport.row("pipelining without reading answers", on)
        .probe(figures)
        .figure(figure)
        .probeHolds(P99_MILLIS)
        .check(recovered, "answers afterwards", "no answer to /health/live within 10 s")
        .record();
  }

  static List<String> none() {
    return List.of();
  }
}
