package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.key.KeyRing.Cached;
import dev.platform.identity.key.TestNodes.Node;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A year of rotations, minute by minute, on two nodes that share only the database and a clock.
 * Node A refreshes at minutes ending in 0, node B at minutes ending in 5 (refresh PT10M, the
 * longest allowed). On day 200 an operator rotates at once on A (an emergency), on day 250 on B
 * (the normal way). At every minute, on both nodes, the invariants of DESIGN decision 4 hold.
 *
 * <p>It runs in the integration phase (failsafe): half a million minutes on two nodes take about
 * eight seconds. A coarser step is not safe: a response's cache end ({@code t + maxAge}) grows with
 * {@code t} between two changes, so the minute before a change is the one that can break the cache
 * invariant, and a step of five minutes would skip it.
 */
class KeyRingYearIT {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration STEP = Duration.ofMinutes(1);
  private static final Duration YEAR = Duration.ofDays(365);
  private static final Duration TOKEN_LIFETIME = Duration.ofHours(24);
  private static final Duration SKEW = Duration.ofMinutes(5);
  private static final Duration PRE_PUBLICATION = Duration.ofHours(24);
  private static final Duration REFRESH = Duration.ofMinutes(10);
  private static final Instant EMERGENCY = START.plus(Duration.ofDays(200));
  private static final Instant OPERATOR = START.plus(Duration.ofDays(250));
  private static final ObjectMapper JSON = new ObjectMapper();

  private final MutableClock clock = new MutableClock(START);
  private final Settings settings =
      TestNodes.settings(
          Map.of(
              JndiSettings.KEY_ROTATION_INTERVAL, "P90D",
              JndiSettings.KEY_PRE_PUBLICATION, "PT24H",
              JndiSettings.KEY_RETENTION, "PT25H",
              JndiSettings.KEY_RING_REFRESH, "PT10M",
              JndiSettings.TOKEN_LIFETIME, "PT24H"));

  /** The last minute each kid signed on any node. */
  private final Map<String, Instant> lastSigned = new HashMap<>();

  /** The first minute each kid signed on any node. */
  private final Map<String, Instant> firstSigned = new HashMap<>();

  /** The first minute any node listed each kid. */
  private final Map<String, Instant> firstListedAnywhere = new HashMap<>();

  /** Keys an operator made sign at once, and until when other nodes may not know them yet. */
  private final Map<String, Instant> emergencyKeys = new HashMap<>();

  @Test
  void whenAYearPassesMinuteByMinuteThenEveryStepKeepsTheRotationInvariants() {
    String database = TestNodes.newDatabase();
    try (Node a = TestNodes.node(database, settings, clock);
        Node b = TestNodes.node(database, settings, clock)) {
      a.rotation().rotateIfDue();
      b.rotation().rotateIfDue();
      View viewA = new View("A", a);
      View viewB = new View("B", b);
      for (Instant t = START; t.isBefore(START.plus(YEAR)); t = t.plus(STEP)) {
        minute(t, viewA, viewB);
      }
      List<SigningKey> rows = a.keys().all();
      // first, days 90 and 180 and the emergency key left the list over 30 days ago: deleted
      assertEquals(2, rows.size(), "the operator's key and day 341's");
      assertEquals(6, firstSigned.size(), "every key signed");
      for (SigningKey key : rows) {
        if (!emergencyKeys.containsKey(key.kid())) {
          assertTrue(
              !key.activeFrom().isBefore(key.publishedAt().plus(PRE_PUBLICATION))
                  || key.publishedAt().equals(START),
              key.kid());
        }
      }
    }
  }

  private void minute(Instant t, View a, View b) {
    clock.set(t);
    long minute = Duration.between(START, t).toMinutes();
    if (minute % 10 == 0) {
      a.node.rotation().rotateIfDue();
    } else if (minute % 10 == 5) {
      b.node.rotation().rotateIfDue();
    }
    if (t.equals(EMERGENCY)) {
      emergencyKeys.put(a.node.rotation().rotate(true).kid(), t.plus(REFRESH));
    }
    if (t.equals(OPERATOR)) {
      b.node.rotation().rotate();
    }
    String currentA = a.step(t);
    String currentB = b.step(t);
    if (!withinEmergencyWindow(t)) {
      assertEquals(currentA, currentB, () -> "the nodes disagree at " + t);
    }
  }

  private boolean withinEmergencyWindow(Instant t) {
    return !t.isBefore(EMERGENCY) && t.isBefore(EMERGENCY.plus(REFRESH));
  }

  /** What one node shows, followed minute by minute. */
  private final class View {
    private final String name;
    private final Node node;
    private final Map<String, Instant> firstListed = new HashMap<>();
    private final Set<String> removed = new HashSet<>();

    /** Per kid: the latest expiry of any response this node gave before it listed that kid. */
    private final Map<String, Instant> cachedWithout = new HashMap<>();

    private final Map<String, Instant> expiries = new HashMap<>();
    private Instant cachedUntil = START;
    private byte[] lastBody;
    private Set<String> listed = Set.of();

    View(String name, Node node) {
      this.name = name;
      this.node = node;
    }

    /** Checks this node at {@code t}; returns its current kid. */
    String step(Instant t) {
      Cached<byte[]> published = node.ring().published();
      Set<String> before = listed;
      if (published.body() != lastBody) {
        lastBody = published.body();
        listed = kids(published.body());
      }
      String current = node.ring().current().kid();
      for (String kid : listed) {
        if (!before.contains(kid)) {
          assertFalse(removed.contains(kid), () -> at(t, kid + " came back"));
          firstListed.putIfAbsent(kid, t);
          firstListedAnywhere.putIfAbsent(kid, t);
          cachedWithout.putIfAbsent(kid, cachedUntil);
        }
      }
      for (String kid : before) {
        if (!listed.contains(kid)) {
          removed.add(kid);
        }
      }
      exactlyOneCurrent(t, current);
      signs(t, current);
      recentSignersListed(t);
      removedKeysNotFound(t);
      cacheEndsBeforeRemoval(t, published.maxAge());
      cachedUntil = later(cachedUntil, t.plus(published.maxAge()));
      return current;
    }

    private void exactlyOneCurrent(Instant t, String current) {
      assertTrue(listed.contains(current), () -> at(t, "the current key is listed"));
      long flagged =
          listed.stream()
              .filter(kid -> node.ring().lookup(kid).orElseThrow().body().isCurrent())
              .count();
      assertEquals(1, flagged, () -> at(t, "keys flagged current"));
      assertTrue(node.ring().lookup(current).orElseThrow().body().isCurrent());
    }

    /**
     * The first signature of a key that did not start at once comes a pre-publication after it was
     * first listed, and at most one refresh less after this node listed it; by then every list this
     * node gave without it has left the caches.
     */
    private void signs(Instant t, String current) {
      lastSigned.put(current, t);
      firstSigned.putIfAbsent(current, t);
      if (firstSigned.get(current).equals(t) && !t.equals(START)) {
        if (!emergencyKeys.containsKey(current)) {
          Instant published = firstListedAnywhere.get(current);
          assertFalse(
              published.isAfter(t.minus(PRE_PUBLICATION)),
              at(t, current + " first listed at " + published));
          Instant listedHere = firstListed.get(current);
          assertFalse(
              listedHere.isAfter(t.minus(PRE_PUBLICATION).plus(REFRESH)),
              at(t, current + " listed here only from " + listedHere));
          assertFalse(
              cachedWithout.get(current).isAfter(t),
              at(
                  t,
                  "a list without " + current + " is cached until " + cachedWithout.get(current)));
        }
      }
    }

    /** Every kid that signed within the token lifetime plus skew is listed. */
    private void recentSignersListed(Instant t) {
      Instant horizon = t.minus(TOKEN_LIFETIME).minus(SKEW);
      lastSigned.forEach(
          (kid, last) -> {
            boolean unknownHereYet =
                emergencyKeys.containsKey(kid) && t.isBefore(emergencyKeys.get(kid));
            if (!last.isBefore(horizon) && !unknownHereYet) {
              assertTrue(listed.contains(kid), () -> at(t, kid + " signed at " + last));
              assertTrue(node.ring().lookup(kid).isPresent(), () -> at(t, kid));
            }
          });
    }

    /** Expired keys are not found; a key the node knows but does not list is not found. */
    private void removedKeysNotFound(Instant t) {
      for (String kid : removed) {
        assertTrue(node.ring().lookup(kid).isEmpty(), () -> at(t, kid + " is still found"));
      }
    }

    /** No response is cached past the removal of a key it lists. */
    private void cacheEndsBeforeRemoval(Instant t, Duration maxAge) {
      assertTrue(maxAge.compareTo(Duration.ofHours(1)) <= 0);
      assertFalse(maxAge.isNegative());
      for (String kid : listed) {
        String expiry = node.ring().lookup(kid).orElseThrow().body().expiresAt();
        if (expiry != null) {
          Instant removal = expiries.computeIfAbsent(expiry, Instant::parse);
          assertFalse(
              t.plus(maxAge).isAfter(removal),
              () -> at(t, "cached for " + maxAge + " past the removal of " + kid));
        }
      }
    }

    private String at(Instant t, String what) {
      return name + " at " + t + ": " + what;
    }
  }

  private static Set<String> kids(byte[] body) {
    try {
      Set<String> kids = new LinkedHashSet<>();
      for (JsonNode key : JSON.readTree(body).get("keys")) {
        kids.add(key.get("kid").asText());
      }
      return kids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
