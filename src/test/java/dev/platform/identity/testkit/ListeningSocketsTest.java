package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Linux's /proc, read for the kit's loopback checks and its port check. */
class ListeningSocketsTest {
  final long self = ProcessHandle.current().pid();

  @BeforeEach
  void onLinux() {
    assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux's /proc");
  }

  @Test
  void whenThisJvmListensOnLoopbackThenItHoldsThePortAndNothingIsExposed() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = socket.getLocalPort();

      assertTrue(ListeningSockets.holds(self, port));
      assertEquals(List.of(), ListeningSockets.notOnLoopback(port));
      assertTrue(
          ListeningSockets.of(self).stream()
              .anyMatch(
                  address ->
                      address.endsWith(String.format(":%04X", port))
                          && ListeningSockets.loopback(address)),
          ListeningSockets.of(self).toString());
    }
  }

  @Test
  void whenAnotherPortIsAskedThenThisJvmDoesNotHoldIt() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }

    assertFalse(ListeningSockets.holds(self, closed));
  }

  @Test
  void whenASocketListensOnEveryInterfaceThenItIsExposed() throws Exception {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(0), 1);
      int port = socket.getLocalPort();

      List<String> exposed = ListeningSockets.notOnLoopback(port);
      assertEquals(1, exposed.size(), exposed.toString());
      assertFalse(ListeningSockets.loopback(exposed.get(0)));
    }
  }

  /**
   * IdentityDeployment.at takes {@code http://[::1]:PORT}, but a container bound to ::1 (its
   * bindAddress) was listed as listening beyond loopback, and identity() refused it every time.
   */
  @Test
  void whenASocketListensOnIpv6LoopbackThenNothingIsExposed() throws Exception {
    try (ServerSocket socket = new ServerSocket()) {
      try {
        socket.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0), 1);
      } catch (java.io.IOException noIpv6) {
        assumeTrue(false, "no IPv6 loopback here: " + noIpv6);
      }
      int port = socket.getLocalPort();

      assertEquals(List.of(), ListeningSockets.notOnLoopback(port));
      assertTrue(ListeningSockets.holds(ProcessHandle.current().pid(), port));
    }
  }
}
