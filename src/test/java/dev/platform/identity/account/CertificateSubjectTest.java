package dev.platform.identity.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.account.CertificateSubject.Kind;
import dev.platform.identity.tls.TestPki;
import java.security.cert.X509Certificate;
import java.util.Map;
import org.bouncycastle.asn1.x509.GeneralName;
import org.junit.jupiter.api.Test;

/**
 * RFC 8705 §2.1.2's subject forms: what registration takes, and how each is compared with a
 * certificate, by its standard's rule rather than by text.
 */
class CertificateSubjectTest {
  static final TestPki PKI = TestPki.authority("Subject test CA");
  static final X509Certificate CERTIFICATE =
      PKI.client(
              "CN=orders,OU=Kitchen Ops,O=Kitchen",
              new GeneralName(GeneralName.dNSName, "orders.kitchen.example"),
              new GeneralName(GeneralName.uniformResourceIdentifier, "spiffe://kitchen/orders"),
              new GeneralName(GeneralName.iPAddress, "10.0.0.7"),
              new GeneralName(GeneralName.iPAddress, "::1"),
              new GeneralName(GeneralName.rfc822Name, "orders@kitchen.example"))
          .certificate();

  static boolean matches(Kind kind, String value) {
    return new CertificateSubject(kind, value).matches(CERTIFICATE);
  }

  @Test
  void whenADnIsWrittenWithOtherCaseOrSpacingThenItIsTheSameName() {
    assertTrue(matches(Kind.SUBJECT_DN, "CN=orders,OU=Kitchen Ops,O=Kitchen"));
    assertTrue(matches(Kind.SUBJECT_DN, "cn=Orders, ou=kitchen ops, o=KITCHEN"));
    assertFalse(matches(Kind.SUBJECT_DN, "CN=orders,O=Kitchen"), "an attribute less");
    assertFalse(matches(Kind.SUBJECT_DN, "O=Kitchen,OU=Kitchen Ops,CN=orders"), "another order");
    assertFalse(matches(Kind.SUBJECT_DN, "CN=orders\\,OU=Kitchen Ops,O=Kitchen"), "escaped comma");
  }

  @Test
  void whenSansAreComparedThenEachByItsOwnRule() {
    assertTrue(matches(Kind.SAN_DNS, "Orders.Kitchen.Example"));
    assertFalse(matches(Kind.SAN_DNS, "kitchen.example"));
    assertTrue(matches(Kind.SAN_URI, "spiffe://kitchen/orders"));
    assertFalse(matches(Kind.SAN_URI, "SPIFFE://kitchen/orders"), "a URI is compared exactly");
    assertTrue(matches(Kind.SAN_IP, "10.0.0.7"));
    assertTrue(matches(Kind.SAN_IP, "0:0:0:0:0:0:0:1"), "IPv6 by its bytes");
    assertFalse(matches(Kind.SAN_IP, "10.0.0.70"));
    assertTrue(matches(Kind.SAN_EMAIL, "orders@KITCHEN.example"), "the domain in any case");
    assertFalse(matches(Kind.SAN_EMAIL, "Orders@kitchen.example"), "the local part exactly");
    // A value is looked for under its own form only: the IP address is no DNS name.
    assertFalse(matches(Kind.SAN_DNS, "10.0.0.7"));
  }

  @Test
  void whenAnIpv4MappedIpv6NameIsPresentedThenItIsNoIpv4AddressNorTheOtherWayRound() {
    X509Certificate mapped =
        PKI.client("CN=mapped", new GeneralName(GeneralName.iPAddress, "::ffff:127.0.0.1"))
            .certificate();
    X509Certificate four =
        PKI.client("CN=four", new GeneralName(GeneralName.iPAddress, "127.0.0.1")).certificate();
    assertFalse(new CertificateSubject(Kind.SAN_IP, "127.0.0.1").matches(mapped));
    assertTrue(new CertificateSubject(Kind.SAN_IP, "::ffff:7f00:1").matches(mapped));
    assertTrue(new CertificateSubject(Kind.SAN_IP, "127.0.0.1").matches(four));
    assertFalse(new CertificateSubject(Kind.SAN_IP, "::ffff:127.0.0.1").matches(four));
  }

  @Test
  void whenTheCertificateHasNoSansThenNoSanFormMatches() {
    X509Certificate bare = PKI.client("CN=orders.kitchen.example").certificate();
    assertFalse(new CertificateSubject(Kind.SAN_DNS, "orders.kitchen.example").matches(bare));
  }

  @Test
  void whenAValueIsNotOfItsFormThenRegistrationNamesWhatIsWrong() {
    Map<Kind, String> bad =
        Map.of(
            Kind.SUBJECT_DN, "orders",
            Kind.SAN_DNS, "*.kitchen.example",
            Kind.SAN_URI, "kitchen/orders",
            Kind.SAN_IP, "orders.kitchen.example",
            Kind.SAN_EMAIL, "orders");
    bad.forEach(
        (kind, value) -> {
          IllegalArgumentException e =
              assertThrows(
                  IllegalArgumentException.class, () -> new CertificateSubject(kind, value));
          assertTrue(e.getMessage().startsWith("is not"), kind + ": " + e.getMessage());
        });
    assertThrows(IllegalArgumentException.class, () -> new CertificateSubject(Kind.SAN_DNS, ""));
    assertThrows(
        IllegalArgumentException.class,
        () -> new CertificateSubject(Kind.SAN_DNS, "a".repeat(CertificateSubject.MAX_LENGTH + 1)));
    assertThrows(
        IllegalArgumentException.class,
        () -> new CertificateSubject(Kind.SAN_URI, "spiffe://kitchen/orders\n"));
    // An IP form never looks a name up: only literals pass.
    assertThrows(
        IllegalArgumentException.class, () -> new CertificateSubject(Kind.SAN_IP, "localhost"));
    assertThrows(
        IllegalArgumentException.class, () -> new CertificateSubject(Kind.SAN_IP, "fe80::1%eth0"));
    assertThrows(
        IllegalArgumentException.class, () -> new CertificateSubject(Kind.SAN_IP, "256.0.0.1"));
  }

  /**
   * Review 39: the KELVIN SIGN (U+212A) lower-cases to 'k', so the DNS check, made on the
   * lower-cased value, took "\u212Aitchen.example" as an ASCII name, and {@code equalsIgnoreCase}
   * then matched it with a certificate's "kitchen.example"; an email's domain likewise. And a bidi
   * override or a zero-width mark, refused in an account's name because it makes the name look like
   * another, was taken in a subject, which the administration API shows as what the account's
   * certificate must carry.
   */
  @Test
  void whenAValueHoldsNonAsciiLookAlikesOrFormatCharactersThenRegistrationRefusesIt() {
    Map<Kind, String> bad =
        Map.of(
            Kind.SAN_DNS, "orders.\u212Aitchen.example",
            Kind.SAN_EMAIL, "orders@\u212Aitchen.example",
            Kind.SUBJECT_DN, "CN=\u202Esredro,O=Kitchen",
            Kind.SAN_URI, "spiffe://kitchen/ord\u200Bers");
    bad.forEach(
        (kind, value) ->
            assertThrows(
                IllegalArgumentException.class,
                () -> CertificateSubject.registered(kind, value),
                kind + " " + value));
    // Stored before this check, such a value is still read: its account must not become unreadable
    // (the administration API's listing of all accounts failed with it).
    bad.forEach((kind, value) -> assertEquals(value, new CertificateSubject(kind, value).value()));
    assertThrows(
        IllegalArgumentException.class,
        () -> CertificateSubject.registered(Kind.SUBJECT_DN, "CN=ord\u2028ers,O=Kitchen"));
    // A DN may still name its holder in any script.
    assertEquals(
        "CN=Bäckerei,O=Küche",
        CertificateSubject.registered(Kind.SUBJECT_DN, "CN=Bäckerei,O=Küche").value());
  }

  @Test
  void whenAFormIsNamedThenItIsFoundByItsMetadataNameOnly() {
    assertEquals(Kind.SAN_IP, Kind.named("tls_client_auth_san_ip").orElseThrow());
    assertTrue(Kind.named("TLS_CLIENT_AUTH_SAN_IP").isEmpty());
    assertEquals(5, Kind.metadataNames().size());
  }
}
