package dev.platform.identity.account;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The iPAddress names of a certificate's subjectAltName extension, as their encoded octets (RFC
 * 5280 §4.2.1.6: 4 for IPv4, 16 for IPv6). The JDK gives them only as text, in which a 16-octet
 * IPv4-mapped address reads as IPv4. A small DER walk over what the JDK has already parsed and
 * checked as a certificate: a SEQUENCE of GeneralName, of which only {@code [7]} (iPAddress,
 * primitive, tag 0x87) is kept; anything that does not read as that shape gives no names.
 */
final class SubjectAltNames {
  private static final String OID = "2.5.29.17";
  private static final int OCTET_STRING = 0x04;
  private static final int SEQUENCE = 0x30;
  private static final int IP_ADDRESS = 0x87;

  private SubjectAltNames() {}

  static List<byte[]> ipAddresses(X509Certificate certificate) {
    byte[] extension = certificate.getExtensionValue(OID);
    if (extension == null) {
      return List.of();
    }
    try {
      Der outer = new Der(extension, 0, extension.length);
      Der.Item wrapped = outer.next(OCTET_STRING);
      Der inner = new Der(extension, wrapped.start(), wrapped.end());
      Der.Item names = inner.next(SEQUENCE);
      Der each = new Der(extension, names.start(), names.end());
      List<byte[]> found = new ArrayList<>();
      while (each.more()) {
        Der.Item name = each.next(-1);
        if (name.tag() == IP_ADDRESS) {
          found.add(Arrays.copyOfRange(extension, name.start(), name.end()));
        }
      }
      return found;
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }

  /** A cursor over DER items between two offsets of one array. */
  private static final class Der {
    record Item(int tag, int start, int end) {}

    private final byte[] bytes;
    private final int end;
    private int at;

    Der(byte[] bytes, int start, int end) {
      this.bytes = bytes;
      this.at = start;
      this.end = end;
    }

    boolean more() {
      return at < end;
    }

    /** The next item, whose tag must be {@code tag} unless that is -1. */
    Item next(int tag) {
      if (at + 2 > end) {
        throw new IllegalArgumentException("truncated");
      }
      int found = bytes[at++] & 0xff;
      if (tag >= 0 && found != tag) {
        throw new IllegalArgumentException("unexpected tag");
      }
      int length = bytes[at++] & 0xff;
      if (length > 0x7f) {
        int octets = length & 0x7f;
        if (octets == 0 || octets > 3 || at + octets > end) {
          throw new IllegalArgumentException("bad length");
        }
        length = 0;
        for (int i = 0; i < octets; i++) {
          length = (length << 8) | (bytes[at++] & 0xff);
        }
      }
      if (length > end - at) {
        throw new IllegalArgumentException("truncated");
      }
      Item item = new Item(found, at, at + length);
      at += length;
      return item;
    }
  }
}
