package dev.platform.identity.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x509.GeneralName;
import org.junit.jupiter.api.Test;

/** The kit's certificates are what the RFC 8705 tests take them for. */
class TestPkiTest {
  @Test
  void whenAClientCertificateIsIssuedThenItChainsToItsAuthorityAndNoOther() throws Exception {
    TestPki authority = TestPki.authority("Test CA");
    TestPki other = TestPki.authority("Other CA");
    TestPki.Issued client =
        authority.client(
            "CN=orders,O=Kitchen", new GeneralName(GeneralName.dNSName, "orders.example"));

    validate(client.certificate(), authority.certificate());
    assertThrows(
        CertPathValidatorException.class,
        () -> validate(client.certificate(), other.certificate()));
    assertEquals("CN=orders,O=Kitchen", client.certificate().getSubjectX500Principal().getName());
    assertEquals(
        List.of(List.of(2, "orders.example")),
        client.certificate().getSubjectAlternativeNames().stream().map(List::copyOf).toList());
  }

  @Test
  void whenACertificateIsExpiredOrSelfSignedThenAPkixCheckRefusesIt() {
    TestPki authority = TestPki.authority("Test CA");
    Instant now = Instant.now();
    TestPki.Issued expired =
        authority.client("CN=old", now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(1)));
    TestPki.Issued self = TestPki.selfSigned("CN=self");

    assertThrows(
        CertPathValidatorException.class,
        () -> validate(expired.certificate(), authority.certificate()));
    assertThrows(
        CertPathValidatorException.class,
        () -> validate(self.certificate(), authority.certificate()));
    assertEquals(List.of(self.certificate()), self.chain());
  }

  private static void validate(X509Certificate certificate, X509Certificate anchor)
      throws Exception {
    PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(anchor, null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX")
        .validate(
            CertificateFactory.getInstance("X.509").generateCertPath(List.of(certificate)),
            parameters);
  }
}
