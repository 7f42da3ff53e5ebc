package dev.platform.identity.verify;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;

/**
 * Issue 40: what a DPoP proof costs a verifier per call, beside a plain cache hit of a Bearer
 * token. One verifier with its token cache warm; for each kind, {@code calls} verifications on this
 * thread, in CPU microseconds per call (thread CPU time) and wall microseconds: a Bearer token (a
 * cache hit: no signature), a DPoP-bound token with an ES256 proof and with an RS256 proof (the
 * token a cache hit, the proof checked in full: parse, its own signature, the claims, {@code ath},
 * the key's thumbprint, the replay cache). Every proof has its own {@code jti} and is made before
 * the clock starts (the client's cost is not the verifier's). A discarded round, then a measured
 * one, each with a new verifier so that its replay cache starts empty.
 *
 * <p>Not a test: {@code bench/verify.sh} runs it after the JMH table. Argument: calls per kind
 * (20,000).
 */
public final class DpopVerifyBenchmark {
  private static final URI API = URI.create("https://api.example.test/orders");

  private DpopVerifyBenchmark() {}

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    KeyPair issuer = TestTokens.rsaKeyPair();
    KeyPair ec = TestProofs.ecKeyPair();
    KeyPairGenerator rsaGenerator = KeyPairGenerator.getInstance("RSA");
    rsaGenerator.initialize(2048);
    KeyPair rsa = rsaGenerator.generateKeyPair();
    long now = System.currentTimeMillis();
    String bearer = token(issuer, null, now);
    String ecBound = token(issuer, ec, now);
    String rsaBound = token(issuer, rsa, now);
    System.out.printf("%d calls a kind, %s%n", calls, Runtime.version());
    for (boolean measured : List.of(false, true)) {
      BearerVerifier verifier =
          BearerVerifier.builder()
              .issuer(TestTokens.ISSUER)
              .keyLocator(
                  kid ->
                      TestTokens.KID.equals(kid)
                          ? Optional.of(issuer.getPublic())
                          : Optional.empty())
              .dpopReplayCacheSize(3 * calls + 10)
              .build();
      report(
          measured, "Bearer, cache hit", verifier, requests("Bearer " + bearer, null, calls + 1));
      report(
          measured,
          "DPoP ES256 proof, token cache hit",
          verifier,
          requests("DPoP " + ecBound, proofs(ec, ecBound, calls + 1), calls + 1));
      report(
          measured,
          "DPoP RS256 proof, token cache hit",
          verifier,
          requests("DPoP " + rsaBound, proofs(rsa, rsaBound, calls + 1), calls + 1));
    }
  }

  private record Call(String authorization, DpopRequest request) {}

  private static void report(
      boolean measured, String label, BearerVerifier verifier, List<Call> calls) {
    // The first call verifies the token's own signature and caches it; the rest are cache hits.
    Call first = calls.get(0);
    verifier.verify(first.authorization(), first.request(), null, List.of());
    List<Call> measuredCalls = calls.subList(1, calls.size());
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu = threads.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    for (Call call : measuredCalls) {
      verifier.verify(call.authorization(), call.request(), null, List.of());
    }
    double cpuMicros = (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / measuredCalls.size();
    double wallMicros = (System.nanoTime() - wall) / 1e3 / measuredCalls.size();
    if (measured) {
      System.out.printf(
          "  %-36s %8.1f us CPU per call  %8.1f us wall per call  %9.0f calls per CPU-second%n",
          label, cpuMicros, wallMicros, 1e6 / cpuMicros);
    }
  }

  private static List<Call> requests(String authorization, List<String> proofs, int n) {
    List<Call> calls = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      calls.add(
          new Call(
              authorization,
              new DpopRequest(proofs == null ? List.of() : List.of(proofs.get(i)), "GET", API)));
    }
    return calls;
  }

  private static List<String> proofs(KeyPair key, String token, int n) {
    List<String> proofs = new ArrayList<>();
    Instant now = Instant.now();
    for (int i = 0; i < n; i++) {
      proofs.add(TestProofs.nimbus(key, "GET", API, now, token));
    }
    return proofs;
  }

  private static String token(KeyPair issuer, KeyPair bound, long now) {
    var token =
        TestTokens.serviceAccount()
            .issuedAt(new Date(now))
            .notBefore(new Date(now))
            .expiration(new Date(now + 3_600_000));
    return TestTokens.signed(
        bound == null ? token : TestProofs.boundToKey(token, bound), issuer.getPrivate());
  }
}
