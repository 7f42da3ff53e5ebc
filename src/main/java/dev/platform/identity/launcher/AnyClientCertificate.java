package dev.platform.identity.launcher;

import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.X509TrustManager;

/**
 * Issue 39: the TLS layer's side of {@code optional_no_ca} on JSSE. Tomcat's JSSE connector treats
 * {@code optional_no_ca} as {@code optional}: without a trust manager of its own it checks a client
 * chain against the JDK's CA list, and names those CAs in its certificate request, so a client with
 * a certificate of a private CA or a self-signed one (RFC 8705 §2.2) sends none at all. This one
 * names no CA and accepts any chain; the client still proves it holds the key (TLS's
 * CertificateVerify), and the service checks the chain or the registered certificate itself.
 *
 * <p>Public with a no-argument constructor: Tomcat loads it by name ({@code
 * trustManagerClassName}).
 */
public final class AnyClientCertificate implements X509TrustManager {
  private static final X509Certificate[] NO_ISSUERS = new X509Certificate[0];

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("an empty client certificate chain");
    }
  }

  /** Never a server's: this trust manager only ever sees clients. */
  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("trusts client certificates only");
  }

  /** None named: a client may then present a certificate of any issuer, or a self-signed one. */
  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return NO_ISSUERS;
  }
}
