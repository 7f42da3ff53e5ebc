package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.it.ChaosRoutes.Group;
import dev.platform.identity.it.SlowSockets.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 35, slow clients: 64 sockets from 127.0.0.1 trickle headers or bodies a byte a second,
 * declare bodies they never send, or hang up and come again, on every route of a group (body
 * attacks put all sockets on one route that takes a body at a time, a slice each); meanwhile the
 * probe from 127.0.0.2 gets the key list and tokens: every request answered, p99 under 250 ms.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlowClientsChaosIT extends ChaosSuite {
  static final Duration SLICE = Duration.ofSeconds(1);
  static final Duration SHORTEST = Duration.ofSeconds(8);
  static final Duration LONGEST = Duration.ofSeconds(30);
  static final long P99_MILLIS = 250;

  List<ChaosRoutes.Route> routes;
  String adminBearer;

  @BeforeAll
  void routesAndToken() throws Exception {
    routes = target.routes();
    adminBearer = target.token(target.admin());
  }

  /** The probe's figures with no attack: what this machine gives, for the rows below. */
  @Test
  @Order(1)
  void whenNobodyAttacksThenTheProbeIsAnsweredInTime() throws Exception {
    ChaosTarget.Account probeAccount = target.account("chaos-probe");
    ChaosProbe.Samples figures;
    try (ChaosProbe probe = ChaosProbe.keysAndTokens(target, probeAccount)) {
      Thread.sleep(SHORTEST.toMillis());
      figures = probe.stop().get("all");
    }
    ChaosReport.row("none (baseline)", "key list, token")
        .probe(figures)
        .figure("-")
        .probeHolds(P99_MILLIS)
        .record();
  }

  /** Every kind on every group anonymously; the body kinds on the admin API with a token too. */
  Stream<Arguments> rows() {
    List<Arguments> rows = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (Group group : Group.values()) {
        rows.add(Arguments.of(kind, group, false));
      }
      if (kind != Kind.SLOW_HEADERS) {
        rows.add(Arguments.of(kind, Group.ADMIN, true));
      }
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0} on {1}, with a token: {2}")
  @Order(2)
  @MethodSource("rows")
  void whenSlowClientsHoldSocketsThenTheProbeIsAnsweredInTime(
      Kind kind, Group group, boolean withToken) throws Exception {
    List<ChaosRoutes.Route> targets = targets(kind, ChaosRoutes.of(routes, group));
    boolean sliced = kind != Kind.SLOW_HEADERS && targets.stream().anyMatch(r -> r.takesBody());
    Duration attack = sliced ? clamp(SLICE.multipliedBy(targets.size())) : SHORTEST;
    ChaosTarget.Account probeAccount = target.account("chaos-probe");
    List<String> headers = withToken ? List.of("Authorization: Bearer " + adminBearer) : List.of();
    ChaosProbe.Samples figures;
    String attackFigure;
    try (SlowSockets sockets =
        new SlowSockets(target.port(), kind, targets, headers, sliced ? SLICE : null).start()) {
      try (ChaosProbe probe = ChaosProbe.keysAndTokens(target, probeAccount)) {
        Thread.sleep(attack.toMillis());
        figures = probe.stop().get("all");
      }
      attackFigure =
          sockets.figure() + ", " + targets.size() + " routes, " + attack.toSeconds() + " s";
    }
    boolean recovered = target.awaitAnswering();
    ChaosReport.row(kind.label, group.label + (withToken ? " (admin token)" : ""))
        .probe(figures)
        .figure(attackFigure)
        .probeHolds(P99_MILLIS)
        .check(recovered, "answers afterwards", "no answer to /health/live within 10 s")
        .record();
    assertTrue(recovered);
  }

  /** The body attacks go to the routes that take a body, or to all where none does. */
  static List<ChaosRoutes.Route> targets(Kind kind, List<ChaosRoutes.Route> group) {
    if (kind == Kind.SLOW_HEADERS) {
      return group;
    }
    List<ChaosRoutes.Route> bodies = group.stream().filter(ChaosRoutes.Route::takesBody).toList();
    return bodies.isEmpty() ? group : bodies;
  }

  static Duration clamp(Duration duration) {
    if (duration.compareTo(SHORTEST) < 0) {
      return SHORTEST;
    }
    return duration.compareTo(LONGEST) > 0 ? LONGEST : duration;
  }
}
