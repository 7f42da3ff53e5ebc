package dev.platform.identity.token;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The addresses a client's {@code jwks_uri} must not reach unless the operator allows it (issue
 * 22): the service's own host and networks, which a registered URL must not be able to probe
 * (server-side request forgery).
 */
final class PrivateAddresses {
  private PrivateAddresses() {}

  /**
   * Loopback, link-local (169.254/16, fe80::/10, cloud metadata), site-local (10/8, 172.16/12,
   * 192.168/16), any-local, multicast, unique-local IPv6 (fc00::/7), CGNAT (100.64/10, RFC 6598),
   * or the IPv4-mapped IPv6 form (::ffff:a.b.c.d) of any of them.
   */
  static boolean isPrivate(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (isIpv4Mapped(bytes)) {
      return isPrivate(ipv4(Arrays.copyOfRange(bytes, 12, 16)));
    }
    return address.isLoopbackAddress()
        || address.isLinkLocalAddress()
        || address.isSiteLocalAddress()
        || address.isAnyLocalAddress()
        || address.isMulticastAddress()
        || (address instanceof Inet4Address ? isSpecialIpv4(bytes) : isUniqueLocal(bytes));
  }

  /** CGNAT 100.64/10, and 0/8 ("this network": Linux connects 0.0.0.0 to the local host). */
  private static boolean isSpecialIpv4(byte[] bytes) {
    return (bytes[0] == 100 && (bytes[1] & 0xc0) == 0x40) || bytes[0] == 0;
  }

  private static boolean isUniqueLocal(byte[] bytes) {
    return (bytes[0] & 0xfe) == 0xfc;
  }

  /** An {@code Inet6Address} can hold a mapped form: its own tests then say nothing of IPv4. */
  private static boolean isIpv4Mapped(byte[] bytes) {
    if (bytes.length != 16 || bytes[10] != (byte) 0xff || bytes[11] != (byte) 0xff) {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static InetAddress ipv4(byte[] bytes) {
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are an IPv4 address", e);
    }
  }
}
