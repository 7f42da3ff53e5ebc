package dev.platform.identity.account;

import dev.platform.identity.text.ShownText;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.security.auth.x500.X500Principal;

/**
 * The one subject a {@code tls_client_auth} account's certificate must carry (RFC 8705 §2.1.2): its
 * subject distinguished name, or one of its subject alternative names of the DNS, URI, IP or email
 * kind. Checked when registered, so that {@link #matches} never meets a value it cannot read.
 *
 * <p>Each form is compared as its standard compares it, never as text that merely looks alike: a DN
 * by RFC 4517's distinguishedNameMatch ({@link X500Principal#equals}, which ignores case and
 * spacing between attributes), a DNS name without regard to ASCII case and with no wildcard, a URI
 * exactly, an IP address by its bytes (so {@code ::1} is {@code 0:0:0:0:0:0:0:1}), an email address
 * exactly but for the case of its domain.
 *
 * @param kind which form
 * @param value the value as registered, checked for its form
 */
public record CertificateSubject(Kind kind, String value) {
  /** The longest value taken: the column's size. */
  public static final int MAX_LENGTH = 1000;

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
  private static final Pattern IPV4 =
      Pattern.compile(
          "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]{2,45}");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s]{1,253}");

  /** RFC 8705 §2.1.2's forms, each by its client metadata name. */
  public enum Kind {
    SUBJECT_DN("tls_client_auth_subject_dn", -1),
    SAN_DNS("tls_client_auth_san_dns", 2),
    SAN_URI("tls_client_auth_san_uri", 6),
    SAN_IP("tls_client_auth_san_ip", 7),
    SAN_EMAIL("tls_client_auth_san_email", 1);

    private final String metadataName;

    /** The GeneralName tag of RFC 5280 §4.2.1.6, as {@code getSubjectAlternativeNames} gives it. */
    private final int generalName;

    Kind(String metadataName, int generalName) {
      this.metadataName = metadataName;
      this.generalName = generalName;
    }

    /** The RFC 8705 §2.1.2 client metadata name, as registered and stored. */
    public String metadataName() {
      return metadataName;
    }

    /** The form of {@code metadataName}, if it is one. */
    public static Optional<Kind> named(String metadataName) {
      return Arrays.stream(values()).filter(k -> k.metadataName.equals(metadataName)).findFirst();
    }

    /** Every form's metadata name, in order. */
    public static List<String> metadataNames() {
      return Arrays.stream(values()).map(Kind::metadataName).toList();
    }
  }

  /**
   * A checked subject.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code value} for {@code kind}
   */
  public CertificateSubject {
    if (kind == null || value == null || value.isEmpty()) {
      throw new IllegalArgumentException("is empty");
    }
    if (value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("is longer than " + MAX_LENGTH + " characters");
    }
    if (value.codePoints().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("holds a control character");
    }
    switch (kind) {
      case SUBJECT_DN -> requireDn(value);
      case SAN_DNS -> requireDns(value);
      case SAN_URI -> requireUri(value);
      case SAN_IP -> address(value);
      case SAN_EMAIL -> {
        if (!EMAIL.matcher(value).matches()) {
          throw new IllegalArgumentException("is not an email address (local@domain)");
        }
      }
    }
  }

  /**
   * A subject as registration takes it: checked as {@link #CertificateSubject} does, and beyond
   * that (review 39) without a format (bidi, zero-width) or line-separator character, and, for a
   * DNS name or an email address, in ASCII, as the certificate's IA5String holds it: the DNS check
   * lower-cases first, and the KELVIN SIGN (U+212A) lower-cases to 'k'. Only for new values: a
   * stored one is read with the constructor's checks, so that none stored before makes its account
   * unreadable.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code value} for {@code kind}
   */
  public static CertificateSubject registered(Kind kind, String value) {
    CertificateSubject subject = new CertificateSubject(kind, value);
    if (ShownText.hasDeceptive(value)) {
      throw new IllegalArgumentException(
          "holds a control, format (bidi) or line-separator character");
    }
    if ((kind == Kind.SAN_DNS || kind == Kind.SAN_EMAIL)
        && !value.chars().allMatch(c -> c < 0x80)) {
      throw new IllegalArgumentException(
          kind == Kind.SAN_DNS
              ? "is not a DNS name (letters, digits and '-' in dot-separated labels; no wildcard)"
              : "is not an email address (local@domain)");
    }
    return subject;
  }

  /** Whether {@code certificate} carries this subject. */
  public boolean matches(X509Certificate certificate) {
    if (kind == Kind.SUBJECT_DN) {
      return certificate.getSubjectX500Principal().equals(new X500Principal(value));
    }
    if (kind == Kind.SAN_IP) {
      return ipAddressMatches(certificate);
    }
    Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return false;
    }
    if (names == null) {
      return false;
    }
    for (List<?> name : names) {
      if (name.size() == 2
          && Integer.valueOf(kind.generalName).equals(name.get(0))
          && name.get(1) instanceof String text
          && sameName(text)) {
        return true;
      }
    }
    return false;
  }

  private boolean sameName(String presented) {
    return switch (kind) {
      case SAN_DNS -> value.equalsIgnoreCase(presented);
      case SAN_URI -> value.equals(presented);
      case SAN_IP -> false; // by the encoded octets: ipAddressMatches
      case SAN_EMAIL -> sameEmail(presented);
      case SUBJECT_DN -> false;
    };
  }

  /** The local part exactly (RFC 5321 §2.4 leaves its case to the host), the domain in any case. */
  private boolean sameEmail(String presented) {
    int at = value.lastIndexOf('@');
    int theirs = presented.lastIndexOf('@');
    return at == theirs
        && value.regionMatches(0, presented, 0, at)
        && value.substring(at).equalsIgnoreCase(presented.substring(theirs));
  }

  private static void requireDn(String value) {
    try {
      new X500Principal(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "is not a distinguished name in RFC 4514's form (such as CN=orders,O=Kitchen)");
    }
  }

  private static void requireDns(String value) {
    String name = value.toLowerCase(Locale.ROOT);
    if (name.length() > 253
        || name.endsWith(".")
        || !Arrays.stream(name.split("\\.", -1)).allMatch(l -> DNS_LABEL.matcher(l).matches())) {
      throw new IllegalArgumentException(
          "is not a DNS name (letters, digits and '-' in dot-separated labels; no wildcard)");
    }
  }

  private static void requireUri(String value) {
    try {
      URI uri = new URI(value);
      if (!uri.isAbsolute()) {
        throw new IllegalArgumentException("is not an absolute URI");
      }
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("is not a URI");
    }
  }

  /** The address an IPv4 or IPv6 literal names; never a DNS lookup, since only literals pass. */
  /**
   * Whether one of the certificate's iPAddress names holds this address's octets: 4 for an IPv4
   * value, 16 for an IPv6 one (RFC 5280 §4.2.1.6). Read from the extension's DER, since the JDK's
   * text for a 16-octet IPv4-mapped name ({@code ::ffff:127.0.0.1}) is {@code 127.0.0.1}, which
   * would make it an IPv4 name.
   */
  private boolean ipAddressMatches(X509Certificate certificate) {
    byte[] wanted = octets(value);
    for (byte[] name : SubjectAltNames.ipAddresses(certificate)) {
      if (Arrays.equals(wanted, name)) {
        return true;
      }
    }
    return false;
  }

  /** An IP literal's octets: 4 when written as IPv4, 16 when written as IPv6, mapped or not. */
  private static byte[] octets(String literal) {
    byte[] address = address(literal).getAddress();
    if (literal.indexOf(':') < 0 || address.length == 16) {
      return address;
    }
    // The JDK reads an IPv4-mapped IPv6 literal as its IPv4 address: written out again in 16.
    byte[] mapped = new byte[16];
    mapped[10] = (byte) 0xff;
    mapped[11] = (byte) 0xff;
    System.arraycopy(address, 0, mapped, 12, 4);
    return mapped;
  }

  private static InetAddress address(String literal) {
    boolean v4 = IPV4.matcher(literal).matches();
    if (!v4 && !(literal.indexOf(':') >= 0 && IPV6.matcher(literal).matches())) {
      throw new IllegalArgumentException("is not an IP address (dotted IPv4 or IPv6 hex)");
    }
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("is not an IP address (dotted IPv4 or IPv6 hex)");
    }
  }
}
