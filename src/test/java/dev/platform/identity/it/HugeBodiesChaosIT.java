package dev.platform.identity.it;

import dev.platform.identity.it.ChaosRoutes.Group;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 35, huge bodies: every route of a group is sent a body of 1 MB, of 100 MB, and a chunked
 * one without end, anonymously first and then with an administrator's token. Each must be refused
 * with 413 or 400 before the attacker has sent it all, and the heap of the {@code -Xmx256m} process
 * stays flat (after a full collection, within {@link #HEAP_GROWTH_MIB}) and it answers afterwards.
 */
class HugeBodiesChaosIT extends ChaosSuite {
  static final long[] SIZES = {HugeBody.MB, 100 * HugeBody.MB, -1};
  static final int PARALLEL = 8;
  static final Duration LONGEST = Duration.ofSeconds(30);
  static final long HEAP_GROWTH_MIB = 32;

  List<ChaosRoutes.Route> routes;
  String adminBearer;

  @BeforeAll
  void routesAndToken() throws Exception {
    routes = target.routes();
    adminBearer = target.token(target.admin());
  }

  Stream<Arguments> rows() {
    List<Arguments> rows = new ArrayList<>();
    for (Group group : Group.values()) {
      rows.add(Arguments.of(group, false));
    }
    rows.add(Arguments.of(Group.ADMIN, true));
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}, with a token: {1}")
  @MethodSource("rows")
  void whenBodiesAreHugeThenTheyAreRefusedBeforeTheyAreSentAndTheHeapStaysFlat(
      Group group, boolean withToken) throws Exception {
    List<ChaosRoutes.Route> targets = ChaosRoutes.of(routes, group);
    List<String> headers = withToken ? List.of("Authorization: Bearer " + adminBearer) : List.of();
    long heapBefore = target.heapUsedMiB();
    long outOfMemoryBefore = target.outOfMemoryErrors();
    ChaosTarget.Account probeAccount = target.account("chaos-probe");
    List<HugeBody.Outcome> outcomes = new ArrayList<>();
    int untried = 0;
    ChaosProbe.Samples figures;
    try (ChaosProbe probe = ChaosProbe.keysAndTokens(target, probeAccount)) {
      long end = System.nanoTime() + LONGEST.toNanos();
      ExecutorService attackers = Executors.newFixedThreadPool(PARALLEL);
      try {
        List<Future<HugeBody.Outcome>> sent = new ArrayList<>();
        for (long size : SIZES) {
          for (ChaosRoutes.Route route : targets) {
            sent.add(
                attackers.submit(
                    () ->
                        System.nanoTime() < end
                            ? HugeBody.send(target.port(), route, size, headers)
                            : null));
          }
        }
        for (Future<HugeBody.Outcome> outcome : sent) {
          HugeBody.Outcome done = outcome.get();
          if (done == null) {
            untried++;
          } else {
            outcomes.add(done);
          }
        }
      } finally {
        attackers.shutdownNow();
      }
      figures = probe.stop().get("all");
    }
    boolean answers = target.awaitAnswering();
    long outOfMemory = target.outOfMemoryErrors() - outOfMemoryBefore;
    long heapAfter = answers ? target.heapUsedMiB() : -1;
    List<HugeBody.Outcome> accepted = outcomes.stream().filter(o -> !o.refusedEarly()).toList();
    ChaosReport.row(
            "bodies of 1 MB, 100 MB, chunked without end",
            group.label + (withToken ? " (admin token)" : " (anonymous)"))
        .probe(figures)
        .figure(
            (outcomes.size() - accepted.size())
                + " of "
                + (outcomes.size() + untried)
                + " refused early; heap "
                + heapBefore
                + " → "
                + heapAfter
                + " MiB after GC; "
                + outOfMemory
                + " OutOfMemoryError logged")
        .check(
            accepted.isEmpty() && untried == 0,
            "413/400 before the body is sent",
            (untried > 0 ? untried + " not tried within 30 s; " : "")
                + accepted.stream().limit(6).map(Object::toString).toList()
                + (accepted.size() > 6 ? " and " + (accepted.size() - 6) + " more" : ""))
        .check(answers, "the process answers afterwards", "no answer to /health/live within 10 s")
        .check(outOfMemory == 0, "no OutOfMemoryError", outOfMemory + " logged")
        .check(
            heapAfter >= 0 && heapAfter - heapBefore <= HEAP_GROWTH_MIB,
            "heap flat (≤ " + HEAP_GROWTH_MIB + " MiB more after GC)",
            heapBefore + " → " + heapAfter + " MiB")
        .record();
  }
}
