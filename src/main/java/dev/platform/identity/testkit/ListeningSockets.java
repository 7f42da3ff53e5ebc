package dev.platform.identity.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The sockets in LISTEN state, as Linux lists them in {@code /proc/net/tcp} and {@code tcp6}: their
 * local addresses in that file's hex ({@code 0100007F:1F90} is 127.0.0.1:8080). Where there is no
 * such file (another system), none are listed.
 */
final class ListeningSockets {
  private static final List<Path> TABLES =
      List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

  /**
   * IPv4 127.0.0.1, the same as an IPv4-mapped IPv6 address, and IPv6's ::1, which {@code
   * IdentityDeployment.at} accepts as {@code http://[::1]:PORT}.
   */
  private static final List<String> LOOPBACK =
      List.of("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000");

  private ListeningSockets() {}

  /** The local addresses of the listening sockets that process {@code pid} holds. */
  static List<String> of(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException closed) {
          // Closed while listed.
        }
      }
    }
    List<String> addresses = new ArrayList<>();
    for (String[] socket : listening()) {
      if (inodes.contains(socket[9])) {
        addresses.add(socket[1]);
      }
    }
    return addresses;
  }

  /**
   * Whether process {@code pid} holds the socket listening on {@code port}; true where Linux's
   * {@code /proc} cannot tell.
   */
  static boolean holds(long pid, int port) {
    if (!Files.isReadable(Path.of("/proc", Long.toString(pid), "fd"))) {
      return true;
    }
    String suffix = String.format(Locale.ROOT, ":%04X", port);
    try {
      return of(pid).stream().anyMatch(address -> address.endsWith(suffix));
    } catch (IOException e) {
      return true;
    }
  }

  /** Whether an address of this file's hex is 127.0.0.1 (IPv4, or IPv4-mapped IPv6) or ::1. */
  static boolean loopback(String address) {
    return LOOPBACK.contains(address.substring(0, address.indexOf(':')));
  }

  /** The listening sockets of any process on {@code port} whose address is not 127.0.0.1. */
  static List<String> notOnLoopback(int port) {
    String suffix = String.format(Locale.ROOT, ":%04X", port);
    try {
      return listening().stream()
          .map(socket -> socket[1])
          .filter(address -> address.endsWith(suffix) && !loopback(address))
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static List<String[]> listening() throws IOException {
    List<String[]> sockets = new ArrayList<>();
    for (Path table : TABLES) {
      if (!Files.isReadable(table)) {
        continue;
      }
      List<String> lines = Files.readAllLines(table);
      for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 9 && fields[3].equals("0A")) {
          sockets.add(fields);
        }
      }
    }
    return sockets;
  }
}
