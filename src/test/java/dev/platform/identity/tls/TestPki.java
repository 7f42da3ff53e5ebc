package dev.platform.identity.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.GeneralSubtree;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.NameConstraints;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issue 39: a certificate authority made by a test, and the certificates the RFC 8705 tests need (a
 * client certificate with a subject and SANs, a self-signed one, an expired one, one of another CA,
 * a server certificate for 127.0.0.1), with the key stores and TLS contexts to use them. EC P-256
 * keys: quick to make. Nothing is written to disk unless a test writes a key store itself.
 */
public final class TestPki {
  private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());
  private static final Duration YEAR = Duration.ofDays(365);

  /** A certificate, its private key, and the chain to present (the certificate first). */
  public record Issued(X509Certificate certificate, KeyPair keys, List<X509Certificate> chain) {
    /** A PKCS#12 key store holding this key and chain under {@code alias}. */
    public KeyStore keyStore(String alias, char[] password) {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(
            alias, keys.getPrivate(), password, chain.toArray(X509Certificate[]::new));
        return store;
      } catch (GeneralSecurityException | java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final Issued authority;

  private TestPki(Issued authority) {
    this.authority = authority;
  }

  /**
   * A new CA named {@code CN=<name>}, valid for a year from now, with no path length constraint:
   * its intermediates (each of path length 0) issue only end entities.
   */
  public static TestPki authority(String name) {
    KeyPair keys = keys();
    X500Name subject = name("CN=" + name);
    Instant now = Instant.now();
    X509Certificate certificate;
    try {
      certificate =
          sign(
              builder(subject, subject, keys, now.minus(Duration.ofMinutes(5)), now.plus(YEAR))
                  .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                  .addExtension(
                      Extension.keyUsage,
                      true,
                      new KeyUsage(
                          KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature)),
              keys);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return new TestPki(new Issued(certificate, keys, List.of(certificate)));
  }

  /**
   * An intermediate CA named {@code CN=<name>}, issued by this one and valid as long: what it
   * issues carries the chain to this CA's certificate.
   */
  public TestPki intermediate(String name) {
    KeyPair keys = keys();
    try {
      X509Certificate certificate =
          sign(
              builder(
                      X500Name.getInstance(
                          authority.certificate().getSubjectX500Principal().getEncoded()),
                      name("CN=" + name),
                      keys,
                      authority.certificate().getNotBefore().toInstant(),
                      authority.certificate().getNotAfter().toInstant())
                  .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                  .addExtension(
                      Extension.keyUsage,
                      true,
                      new KeyUsage(
                          KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature)),
              authority.keys());
      List<X509Certificate> chain = new ArrayList<>(List.of(certificate));
      chain.addAll(authority.chain());
      return new TestPki(new Issued(certificate, keys, List.copyOf(chain)));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * As {@link #intermediate}, with a critical nameConstraints extension permitting only {@code
   * permitted} (RFC 5280 §4.2.1.10): what it issues must fall within them.
   */
  public TestPki constrainedIntermediate(String name, GeneralName... permitted) {
    KeyPair keys = keys();
    try {
      X509Certificate certificate =
          sign(
              builder(
                      X500Name.getInstance(
                          authority.certificate().getSubjectX500Principal().getEncoded()),
                      name("CN=" + name),
                      keys,
                      authority.certificate().getNotBefore().toInstant(),
                      authority.certificate().getNotAfter().toInstant())
                  .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                  .addExtension(
                      Extension.keyUsage,
                      true,
                      new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                  .addExtension(
                      Extension.nameConstraints,
                      true,
                      new NameConstraints(
                          java.util.Arrays.stream(permitted)
                              .map(GeneralSubtree::new)
                              .toArray(GeneralSubtree[]::new),
                          null)),
              authority.keys());
      List<X509Certificate> chain = new ArrayList<>(List.of(certificate));
      chain.addAll(authority.chain());
      return new TestPki(new Issued(certificate, keys, List.copyOf(chain)));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A server certificate, not fit for a client, with {@code subjectDn}. */
  public Issued serverOnly(String subjectDn) {
    Instant now = Instant.now();
    return issue(
        subjectDn, now.minus(Duration.ofMinutes(5)), now.plus(YEAR), KeyPurposeId.id_kp_serverAuth);
  }

  /** The CA's own certificate, for a trust store. */
  public X509Certificate certificate() {
    return authority.certificate();
  }

  /**
   * A client certificate for TLS client authentication, valid now.
   *
   * @param subjectDn e.g. {@code CN=orders,O=Kitchen}
   * @param sans subject alternative names, e.g. {@code new GeneralName(GeneralName.dNSName,
   *     "orders.example")}; none when empty
   */
  public Issued client(String subjectDn, GeneralName... sans) {
    Instant now = Instant.now();
    return client(subjectDn, now.minus(Duration.ofMinutes(5)), now.plus(YEAR), sans);
  }

  /**
   * A client certificate valid from {@code notBefore} to {@code notAfter} (an expired one, say).
   */
  public Issued client(String subjectDn, Instant notBefore, Instant notAfter, GeneralName... sans) {
    return issue(subjectDn, notBefore, notAfter, KeyPurposeId.id_kp_clientAuth, sans);
  }

  /** A server certificate for {@code 127.0.0.1} and {@code localhost}. */
  public Issued server() {
    Instant now = Instant.now();
    return issue(
        "CN=localhost",
        now.minus(Duration.ofMinutes(5)),
        now.plus(YEAR),
        KeyPurposeId.id_kp_serverAuth,
        new GeneralName(GeneralName.dNSName, "localhost"),
        new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
  }

  /** A self-signed client certificate ({@code self_signed_tls_client_auth}), valid now. */
  public static Issued selfSigned(String subjectDn) {
    KeyPair keys = keys();
    X500Name subject = name(subjectDn);
    Instant now = Instant.now();
    X509Certificate certificate;
    try {
      certificate =
          sign(
              builder(subject, subject, keys, now.minus(Duration.ofMinutes(5)), now.plus(YEAR))
                  .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                  .addExtension(
                      Extension.extendedKeyUsage,
                      false,
                      new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth)),
              keys);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return new Issued(certificate, keys, List.of(certificate));
  }

  /** A trust store holding {@code certificates}. */
  public static KeyStore trustStore(X509Certificate... certificates) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      for (int i = 0; i < certificates.length; i++) {
        store.setCertificateEntry("trusted-" + i, certificates[i]);
      }
      return store;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A client's TLS context: it trusts {@code serverAuthority} and presents {@code client}, or no
   * certificate when {@code client} is null.
   */
  public static SSLContext clientContext(X509Certificate serverAuthority, Issued client) {
    try {
      char[] password = "test".toCharArray();
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(client == null ? null : client.keyStore("client", password), password);
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trustStore(serverAuthority));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), trust.getTrustManagers(), new SecureRandom());
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private Issued issue(
      String subjectDn,
      Instant notBefore,
      Instant notAfter,
      KeyPurposeId purpose,
      GeneralName... sans) {
    KeyPair keys = keys();
    try {
      X509v3CertificateBuilder builder =
          builder(
                  X500Name.getInstance(
                      authority.certificate().getSubjectX500Principal().getEncoded()),
                  name(subjectDn),
                  keys,
                  notBefore,
                  notAfter)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
              .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      if (sans.length > 0) {
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
      }
      X509Certificate certificate = sign(builder, authority.keys());
      List<X509Certificate> chain = new ArrayList<>(List.of(certificate));
      chain.addAll(authority.chain());
      return new Issued(certificate, keys, List.copyOf(chain));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code dn} as RFC 4514 reads it, the order the JDK's {@code X500Principal} prints. */
  private static X500Name name(String dn) {
    return X500Name.getInstance(new X500Principal(dn).getEncoded());
  }

  private static X509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, KeyPair keys, Instant notBefore, Instant notAfter) {
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(notBefore),
        Date.from(notAfter),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KeyPair keys() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
