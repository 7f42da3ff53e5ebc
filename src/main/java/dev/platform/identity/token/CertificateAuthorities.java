package dev.platform.identity.token;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.Certificate;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The CAs a {@code tls_client_auth} client's certificate must chain to (RFC 8705 §2.1): the
 * operator's {@code identity/tlsClientCaFile}, each of them a trust anchor. A chain is built by the
 * JDK's PKIX path builder from the client's certificate through the certificates its connection
 * presented after it, to one of them, every certificate valid at the given time; revocation is not
 * checked (docs/mutual-tls.md). A proxy passes only the client's own certificate, so behind one an
 * intermediate CA must itself be in the file.
 *
 * <p>Beyond the path, the client's certificate must be fit for TLS client authentication: where it
 * names its key usages, digitalSignature among them, and where it names extended ones, clientAuth
 * or anyExtendedKeyUsage.
 */
final class CertificateAuthorities {
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final String ANY_EXTENDED_KEY_USAGE = "2.5.29.37.0";

  /**
   * The most certificates a presented chain may hold, the client's own included: JSSE's default
   * ({@code jdk.tls.maxCertificateChainLength}). The path builder searches all of them, and a
   * longer chain of certificates that name each other costs it time that grows faster than the
   * chain (200 took over a second); a TLS layer without that limit (Tomcat's OpenSSL) passes what
   * the client sent (review 39).
   */
  static final int MAX_CHAIN = 10;

  private final Set<TrustAnchor> anchors;

  /**
   * The DER of the name constraints of those CAs that have them, by CA: a selector is made of them
   * for each request, since the JDK's checks cache what they compute without a lock.
   */
  private final Map<X509Certificate, byte[]> constraints = new HashMap<>();

  /** None: no certificate chains, and no tls_client_auth client authenticates. */
  static final CertificateAuthorities NONE = new CertificateAuthorities(List.of());

  CertificateAuthorities(List<X509Certificate> authorities) {
    this.anchors =
        authorities.stream()
            .map(authority -> new TrustAnchor(authority, null))
            .collect(Collectors.toUnmodifiableSet());
    for (X509Certificate authority : authorities) {
      byte[] permitted = nameConstraints(authority);
      if (permitted != null) {
        permitted(authority, permitted);
        constraints.put(authority, permitted);
      }
    }
  }

  /**
   * The DER of {@code authority}'s own nameConstraints, or null without them. The JDK's PKIX
   * ignores an anchor certificate's extensions (and refuses name constraints given to a {@code
   * TrustAnchor}), while a CA of the file is an anchor even when it is an intermediate constrained
   * by its issuer: without this it could issue any subject (review 39). Its path length constraint
   * is checked likewise, in {@link #trust}.
   *
   * @throws IllegalArgumentException when the extension is not an OCTET STRING
   */
  private static byte[] nameConstraints(X509Certificate authority) {
    byte[] extension = authority.getExtensionValue("2.5.29.30");
    if (extension == null) {
      return null;
    }
    // getExtensionValue gives the extnValue OCTET STRING itself: its contents are the DER.
    int length = extension.length > 1 ? extension[1] & 0xff : -1;
    int offset = 2;
    if (length > 0x7f && length <= 0x83 && extension.length > 2 + (length & 0x7f)) {
      int bytes = length & 0x7f;
      length = 0;
      for (int i = 0; i < bytes; i++) {
        length = (length << 8) | (extension[2 + i] & 0xff);
      }
      offset += bytes;
    }
    if (extension[0] != 0x04 || offset + length != extension.length) {
      throw new IllegalArgumentException(
          "the nameConstraints of " + authority.getSubjectX500Principal() + " do not parse");
    }
    return Arrays.copyOfRange(extension, offset, extension.length);
  }

  /**
   * A selector of the certificates whose subject and SANs {@code nameConstraints} permit.
   *
   * @throws IllegalArgumentException when they do not parse
   */
  private static X509CertSelector permitted(X509Certificate authority, byte[] nameConstraints) {
    try {
      X509CertSelector selector = new X509CertSelector();
      selector.setNameConstraints(nameConstraints);
      return selector;
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "the nameConstraints of " + authority.getSubjectX500Principal() + " do not parse", e);
    }
  }

  /** Whether any CA is configured. */
  boolean any() {
    return !anchors.isEmpty();
  }

  /**
   * Whether {@code chain}'s first certificate chains to one of the CAs at {@code at}, through the
   * others where it needs them, and is fit for client authentication.
   */
  boolean trust(List<X509Certificate> chain, Instant at) {
    if (anchors.isEmpty()
        || chain.isEmpty()
        || chain.size() > MAX_CHAIN
        || !fitForClients(chain.get(0))) {
      return false;
    }
    X509CertSelector target = new X509CertSelector();
    target.setCertificate(chain.get(0));
    try {
      PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, target);
      parameters.setRevocationEnabled(false);
      parameters.setDate(Date.from(at));
      parameters.addCertStore(
          CertStore.getInstance("Collection", new CollectionCertStoreParameters(chain)));
      PKIXCertPathBuilderResult result =
          (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX").build(parameters);
      X509Certificate anchor = result.getTrustAnchor().getTrustedCert();
      // The anchor's own validity, constraints and limits, which the JDK ignores: a CA that was
      // valid at start may have expired since; the CAs it may have below it; and the subject and
      // SANs an account is matched by.
      anchor.checkValidity(Date.from(at));
      if (anchor.getBasicConstraints() >= 0
          && casBelow(result.getCertPath().getCertificates()) > anchor.getBasicConstraints()) {
        return false;
      }
      byte[] permitted = constraints.get(anchor);
      return permitted == null || permitted(anchor, permitted).match(chain.get(0));
    } catch (InvalidAlgorithmParameterException e) {
      throw new IllegalStateException("the PKIX parameters were refused", e);
    } catch (GeneralSecurityException e) {
      // CertPathBuilderException: no path to a CA at that time; the client is told only
      // invalid_client, like every other failed authentication.
      return false;
    }
  }

  /**
   * RFC 5280 §4.2.1.9's count: the CAs of a path (the client's certificate first, the anchor not in
   * it) that are not self-issued.
   */
  private static int casBelow(List<? extends Certificate> path) {
    int count = 0;
    // From the second: the first is the client's; none when the client presented the anchor itself.
    for (int i = 1; i < path.size(); i++) {
      X509Certificate ca = (X509Certificate) path.get(i);
      if (!ca.getSubjectX500Principal().equals(ca.getIssuerX500Principal())) {
        count++;
      }
    }
    return count;
  }

  /**
   * Fit for TLS client authentication: not a CA (a CA's key signs certificates, and a client
   * certificate that is a CA's, even the trusted one itself, is refused rather than taken as an
   * account's), {@code digitalSignature} where key usages are named, {@code clientAuth} or any
   * where extended ones are.
   */
  private static boolean fitForClients(X509Certificate certificate) {
    if (certificate.getBasicConstraints() >= 0) {
      return false;
    }
    boolean[] usage = certificate.getKeyUsage();
    if (usage != null && !usage[0]) {
      return false;
    }
    try {
      List<String> extended = certificate.getExtendedKeyUsage();
      return extended == null
          || extended.contains(CLIENT_AUTH)
          || extended.contains(ANY_EXTENDED_KEY_USAGE);
    } catch (java.security.cert.CertificateParsingException e) {
      return false;
    }
  }
}
