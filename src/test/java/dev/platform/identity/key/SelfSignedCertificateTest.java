package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Issue 24: the certificate beside a token key, checked by the JDK's own X.509 parser. */
class SelfSignedCertificateTest {
  private static final String KID = "zfHEFIm7eT7wTmXOe5QHHg";

  @Test
  void whenMadeThenTheJdkParsesItAndItsSignatureIsTheKeys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair pair = generator.generateKeyPair();
    Instant now = Instant.parse("2026-11-25T21:00:00Z");

    X509Certificate certificate =
        SelfSignedCertificate.of(KID, pair, Security.getProvider("SunRsaSign"), now);

    certificate.verify(pair.getPublic()); // throws unless the key signed it
    assertEquals(1, certificate.getVersion());
    assertEquals("CN=" + KID, certificate.getSubjectX500Principal().getName());
    assertEquals(certificate.getSubjectX500Principal(), certificate.getIssuerX500Principal());
    assertEquals(now, certificate.getNotBefore().toInstant());
    assertEquals(Instant.parse("9999-12-31T23:59:59Z"), certificate.getNotAfter().toInstant());
    assertEquals("SHA256withRSA", certificate.getSigAlgName());
    assertArrayEquals(pair.getPublic().getEncoded(), certificate.getPublicKey().getEncoded());
  }
}
