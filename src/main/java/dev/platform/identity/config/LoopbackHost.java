package dev.platform.identity.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Whether a URL's host is this machine, judged by its text alone: a prefix test let {@code
 * 127.example.com} pass, and a DNS lookup at start-up would let whoever answers it decide. Loopback
 * is {@code localhost}, an IPv4 literal in 127.0.0.0/8 (dotted quad, RFC 1122 §3.2.1.3) or the IPv6
 * literal {@code [::1]} in any of its spellings (RFC 4291 §2.2, §2.5.3).
 */
final class LoopbackHost {
  private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
  private static final Pattern IPV4 = Pattern.compile("127(\\." + OCTET + "){3}");
  private static final Pattern IPV6_GROUP = Pattern.compile("[0-9A-Fa-f]{1,4}");
  private static final List<Integer> IPV6_LOOPBACK = List.of(0, 0, 0, 0, 0, 0, 0, 1);

  private LoopbackHost() {}

  /** {@code host} as {@link java.net.URI#getHost()} gives it: IPv6 literals in brackets. */
  static boolean is(String host) {
    return host.equalsIgnoreCase("localhost") || IPV4.matcher(host).matches() || isIpv6(host);
  }

  private static boolean isIpv6(String host) {
    if (!host.startsWith("[") || !host.endsWith("]")) {
      return false;
    }
    String[] halves = host.substring(1, host.length() - 1).split("::", -1);
    if (halves.length > 2) {
      return false;
    }
    List<Integer> head = groups(halves[0]);
    List<Integer> tail = halves.length == 2 ? groups(halves[1]) : List.of();
    if (head == null || tail == null) {
      return false;
    }
    int elided = 8 - head.size() - tail.size();
    if (halves.length == 2 ? elided < 1 : elided != 0) {
      return false;
    }
    List<Integer> address = new ArrayList<>(head);
    address.addAll(Collections.nCopies(elided, 0));
    address.addAll(tail);
    return address.equals(IPV6_LOOPBACK);
  }

  /**
   * The 16-bit groups of a colon-separated run, empty for ""; null if one is not 1-4 hex digits.
   */
  private static List<Integer> groups(String run) {
    if (run.isEmpty()) {
      return List.of();
    }
    List<Integer> groups = new ArrayList<>();
    for (String group : run.split(":", -1)) {
      if (!IPV6_GROUP.matcher(group).matches()) {
        return null;
      }
      groups.add(Integer.parseInt(group, 16));
    }
    return groups;
  }
}
