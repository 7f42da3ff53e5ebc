package dev.platform.identity.key;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Provider;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * The certificate the JDK's PKCS#11 KeyStore needs beside a private key before it stores (and later
 * lists) it. Nothing reads it but that KeyStore: an X.509 v1 certificate (RFC 5280 §4.1) with the
 * kid as subject and issuer common name, signed inside the token by the key itself. About fifty
 * lines of DER, rather than BouncyCastle's 10.5 MB of jars for this one structure.
 */
final class SelfSignedCertificate {
  /** sha256WithRSAEncryption (RFC 4055 §5) with its NULL parameters. */
  private static final byte[] SHA256_WITH_RSA = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x0b,
    0x05,
    0x00
  };

  /** id-at-commonName (2.5.4.3). */
  private static final byte[] COMMON_NAME = {0x06, 0x03, 0x55, 0x04, 0x03};

  private static final DateTimeFormatter UTC_TIME =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

  /** RFC 5280 §4.1.2.5: "no well-defined expiration date". */
  private static final byte[] NO_EXPIRY =
      tlv(0x18, "99991231235959Z".getBytes(StandardCharsets.US_ASCII));

  private SelfSignedCertificate() {}

  /** A certificate for {@code pair} named {@code kid}, valid from {@code now}, signed by it. */
  static X509Certificate of(String kid, KeyPair pair, Provider provider, Instant now)
      throws GeneralSecurityException {
    byte[] name = seq(tlv(0x31, seq(COMMON_NAME, tlv(0x0c, kid.getBytes(StandardCharsets.UTF_8)))));
    byte[] notBefore = tlv(0x17, UTC_TIME.format(now).getBytes(StandardCharsets.US_ASCII));
    byte[] serial = tlv(0x02, new BigInteger(1, Base64.getUrlDecoder().decode(kid)).toByteArray());
    byte[] tbs =
        seq(
            serial,
            SHA256_WITH_RSA,
            name,
            seq(notBefore, NO_EXPIRY),
            name,
            pair.getPublic().getEncoded());
    Signature rs256 = Signature.getInstance("SHA256withRSA", provider);
    rs256.initSign(pair.getPrivate());
    rs256.update(tbs);
    byte[] signature = rs256.sign();
    byte[] bits = new byte[signature.length + 1]; // no unused bits
    System.arraycopy(signature, 0, bits, 1, signature.length);
    byte[] der = seq(tbs, SHA256_WITH_RSA, tlv(0x03, bits));
    return (X509Certificate)
        CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
  }

  private static byte[] seq(byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      content.writeBytes(part);
    }
    return tlv(0x30, content.toByteArray());
  }

  /** A DER tag, its definite length (short or long form) and the value. */
  private static byte[] tlv(int tag, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
    out.write(tag);
    int length = value.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int octets = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | octets);
      for (int i = octets - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(value);
    return out.toByteArray();
  }
}
