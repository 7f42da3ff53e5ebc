package dev.platform.identity.token;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
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

  /** None: no certificate chains, and no tls_client_auth client authenticates. */
  static final CertificateAuthorities NONE = new CertificateAuthorities(List.of());

  CertificateAuthorities(List<X509Certificate> authorities) {
    this.anchors =
        authorities.stream()
            .map(authority -> new TrustAnchor(authority, null))
            .collect(Collectors.toUnmodifiableSet());
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
      CertPathBuilder.getInstance("PKIX").build(parameters);
      return true;
    } catch (InvalidAlgorithmParameterException e) {
      throw new IllegalStateException("the PKIX parameters were refused", e);
    } catch (GeneralSecurityException e) {
      // CertPathBuilderException: no path to a CA at that time; the client is told only
      // invalid_client, like every other failed authentication.
      return false;
    }
  }

  private static boolean fitForClients(X509Certificate certificate) {
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
