package dev.platform.identity.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Repeated refusals counted per minute rather than written one line each. The first refusal of a
 * kind (event and outcome) for a subject (the client_id, or the address when there is none or it is
 * malformed) in a minute of the clock is written in full; the rest of that minute are counted, and
 * one line says how many once the minute is over. One address opens at most {@link
 * #KEYS_PER_ADDRESS} keys a minute (a key is a kind and a subject): past that, its refusals of new
 * keys are counted under one {@link #UNTRACKED} subject per kind and address, so one address can
 * neither swell the log nor, by spending a cap shared with everyone, hide another address's
 * refusals. At most {@link #MAX_KEYS} keys are tracked in a minute in all, the bound of the memory:
 * past that, refusals of new keys are counted under {@link #UNTRACKED} with no address.
 */
final class RefusalTally {
  /** Keys (kind and subject) tracked in one minute, from every address together. */
  static final int MAX_KEYS = 10_000;

  /** Keys one address may open in a minute; the bound of docs/rate-limits.md. */
  static final int KEYS_PER_ADDRESS = 20;

  /** The subject that counts the refusals of subjects past the cap. */
  static final String UNTRACKED = "(untracked)";

  /**
   * What one refusal is counted under.
   *
   * @param reason the refusal's {@code reason} detail (the service's own words, such as {@code
   *     secret_expired}), or null: an expired secret is not folded into wrong ones
   */
  record Kind(String event, String outcome, String reason, String subject, boolean stored) {}

  /**
   * One minute's count of one kind beyond its first refusal.
   *
   * @param actor the client_id of its first refusal, or null
   * @param remote the address of its first refusal, or null for {@link #UNTRACKED}
   */
  record Summary(Kind kind, String actor, String remote, Instant windowStart, long count) {}

  /** The counting's answer to one refusal. */
  record Counted(boolean writeInFull, List<Summary> ended) {}

  private static final class Count {
    final String actor;
    final String remote;
    long folded;

    Count(String actor, String remote) {
      this.actor = actor;
      this.remote = remote;
    }
  }

  private final Map<Kind, Count> counts = new LinkedHashMap<>();
  private final Map<String, Integer> keysByAddress = new HashMap<>();
  private long minute = Long.MIN_VALUE;
  private int tracked;

  /**
   * Counts one refusal at {@code now}.
   *
   * @return whether to write it in full, and the summaries of a minute that just ended
   */
  synchronized Counted count(
      String event,
      String outcome,
      String reason,
      String actor,
      String remote,
      boolean stored,
      Instant now) {
    List<Summary> ended = endMinutesBefore(now);
    String subject = actor == null || CallerText.MALFORMED_CLIENT_ID.equals(actor) ? remote : actor;
    Kind kind = new Kind(event, outcome, reason, subject, stored);
    Count count = counts.get(kind);
    if (count != null) {
      count.folded++;
      return new Counted(false, ended);
    }
    int opened = keysByAddress.getOrDefault(String.valueOf(remote), 0);
    if (tracked < MAX_KEYS && opened < KEYS_PER_ADDRESS) {
      tracked++;
      keysByAddress.put(String.valueOf(remote), opened + 1);
      counts.put(kind, new Count(actor, remote));
      return new Counted(true, ended);
    }
    // Past its address's share: counted under the address. Past the whole cap: under no address.
    String from = tracked < MAX_KEYS ? remote : null;
    Kind untracked =
        new Kind(event, outcome, reason, UNTRACKED + (from == null ? "" : " " + from), stored);
    if (!counts.containsKey(untracked)) {
      tracked++;
    }
    counts.computeIfAbsent(untracked, k -> new Count(null, from)).folded++;
    return new Counted(false, ended);
  }

  /** The summaries of the minutes before {@code now}'s, which are then forgotten. */
  synchronized List<Summary> endMinutesBefore(Instant now) {
    long current = Math.floorDiv(now.getEpochSecond(), 60);
    if (current == minute) {
      return List.of();
    }
    List<Summary> ended = new ArrayList<>();
    Instant start = counts.isEmpty() ? now : Instant.ofEpochSecond(minute * 60);
    counts.forEach(
        (kind, count) -> {
          if (count.folded > 0) {
            ended.add(new Summary(kind, count.actor, count.remote, start, count.folded));
          }
        });
    counts.clear();
    keysByAddress.clear();
    tracked = 0;
    minute = current;
    return ended;
  }
}
