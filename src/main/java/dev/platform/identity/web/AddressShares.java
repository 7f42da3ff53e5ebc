package dev.platform.identity.web;

import java.util.concurrent.ConcurrentHashMap;

/**
 * How many request threads each client address holds at once, and the share none may pass. A client
 * that sends requests and never reads the answers holds a thread for each answer until the
 * connector's write timeout; with a share, it holds at most its share, and the threads left serve
 * everyone else. Only addresses holding a thread are kept, so the map is never larger than the
 * container's request threads.
 */
final class AddressShares {
  private final int share;
  private final ConcurrentHashMap<String, Integer> held = new ConcurrentHashMap<>();

  /**
   * @param share the most request threads one address may hold at once
   */
  AddressShares(int share) {
    this.share = share;
  }

  /** Takes a thread for {@code address}, unless it holds its share already. */
  boolean take(String address) {
    boolean[] taken = new boolean[1];
    held.compute(
        address,
        (key, count) -> {
          int now = count == null ? 0 : count;
          taken[0] = now < share;
          return taken[0] ? now + 1 : count;
        });
    return taken[0];
  }

  /** Gives back a thread that {@link #take} took. */
  void release(String address) {
    held.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1);
  }

  /** How many threads {@code address} holds now. */
  int held(String address) {
    return held.getOrDefault(address, 0);
  }
}
