package dev.platform.identity.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWK;
import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.tls.TestPki;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/** Issue 39: the console's PEM certificate field, as the one-key JWK Set the API takes. */
class CertificateKeySetTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static String pem(X509Certificate certificate) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  /** A self-signed certificate of a fresh key of {@code algorithm}, signed as BouncyCastle does. */
  static X509Certificate selfSigned(KeyPair keys, String signature) throws Exception {
    X500Name name = new X500Name("CN=console");
    Instant now = Instant.now();
    return new JcaX509CertificateConverter()
        .getCertificate(
            new JcaX509v3CertificateBuilder(
                    name,
                    BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(Duration.ofDays(30))),
                    name,
                    keys.getPublic())
                .build(new JcaContentSignerBuilder(signature).build(keys.getPrivate())));
  }

  /** The set holds the key Nimbus's JWK.parse(X509Certificate) reads, with the one x5c. */
  static void assertSameAsNimbus(X509Certificate certificate, JsonNode set) throws Exception {
    assertEquals(1, set.get("keys").size(), set.toString());
    JsonNode key = set.get("keys").get(0);
    JsonNode nimbus = JSON.readTree(JWK.parse(certificate).toPublicJWK().toJSONString());
    for (String member : List.of("kty", "crv", "n", "e", "x", "y")) {
      assertEquals(nimbus.get(member), key.get(member), member + " of " + key);
    }
    assertEquals(
        Base64.getEncoder().encodeToString(certificate.getEncoded()),
        key.get("x5c").get(0).asText());
    assertEquals(1, key.get("x5c").size());
    assertEquals(
        1, ClientJwks.parseCertified(set).keys().size(), "and the API's own check takes it");
  }

  @Test
  void whenTheCertificateIsEcP256ThenTheSetHoldsItsKeyAndItsCertificate() throws Exception {
    X509Certificate certificate = TestPki.selfSigned("CN=orders").certificate();
    assertSameAsNimbus(certificate, CertificateKeySet.of(pem(certificate)));
  }

  @Test
  void whenTheCertificateIsRsaThenTheSetHoldsItsKeyAndItsCertificate() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    X509Certificate certificate = selfSigned(rsa.generateKeyPair(), "SHA256withRSA");
    // Windows line ends and spaces around the block change nothing.
    String pem = "  \r\n" + pem(certificate).replace("\n", "\r\n") + "\r\n ";
    assertSameAsNimbus(certificate, CertificateKeySet.of(pem));
  }

  @Test
  void whenTheFieldIsNotOneCertificateThenItIsRefusedSayingWhy() throws Exception {
    X509Certificate certificate = TestPki.selfSigned("CN=orders").certificate();
    String pem = pem(certificate);
    String body = pem.substring(pem.indexOf('\n') + 1, pem.indexOf("-----END"));
    assertRefused("", "needs its certificate");
    assertRefused("hello", "is not one PEM certificate");
    assertRefused(body, "is not one PEM certificate");
    assertRefused("junk\n" + pem, "is not one PEM certificate");
    assertRefused(pem + pem, "holds 2 certificates");
    assertRefused(
        pem.replace("-----BEGIN CERTIFICATE-----\n", "-----BEGIN CERTIFICATE-----\n!"),
        "is not one PEM certificate");
    assertRefused(pem.replace(body, "QUJD\n"), "does not parse as one X.509 certificate");
    assertRefused(pem.replace(body, "Q\n"), "not valid base64");
    String longer =
        "-----BEGIN CERTIFICATE-----\n"
            + Base64.getMimeEncoder()
                .encodeToString(concat(certificate.getEncoded(), new byte[] {0, 0}))
            + "\n-----END CERTIFICATE-----";
    assertRefused(longer, "does not parse as one X.509 certificate");
    assertRefused(
        "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n" + pem,
        "holds a private key");
    assertRefused(pem + " ".repeat(CertificateKeySet.MAX_PEM), "longer than");
  }

  @Test
  void whenTheKeyIsNeitherRsaNorP256ThenItIsRefusedNamingIt() throws Exception {
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp384r1"));
    assertRefused(
        pem(selfSigned(ec.generateKeyPair(), "SHA384withECDSA")), "EC on a curve other than P-256");
    KeyPairGenerator ed = KeyPairGenerator.getInstance("Ed25519");
    assertRefused(pem(selfSigned(ed.generateKeyPair(), "Ed25519")), "key is Ed");
  }

  static void assertRefused(String pem, String because) {
    FormFields.InvalidFormException refused =
        assertThrows(FormFields.InvalidFormException.class, () -> CertificateKeySet.of(pem));
    assertTrue(refused.getMessage().contains(because), refused.getMessage());
    assertFalse(refused.getMessage().contains("MIGH"), "never repeats the field");
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
