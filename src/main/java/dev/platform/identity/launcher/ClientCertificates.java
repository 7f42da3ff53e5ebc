package dev.platform.identity.launcher;

import java.util.regex.Pattern;
import org.apache.catalina.Pipeline;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.SSLValve;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * Issue 39, where a client certificate comes from: the launcher's own TLS, or a header from a
 * trusted proxy. Either way the service finds it as the request attribute {@code
 * jakarta.servlet.request.X509Certificate}, and validates it itself (RFC 8705).
 */
final class ClientCertificates {
  private ClientCertificates() {}

  /** Sets up {@code tomcat}'s connector and engine as {@code options} ask; before start. */
  static void configure(Tomcat tomcat, Options options) {
    options.tls().ifPresent(keyStore -> https(tomcat.getConnector(), keyStore.open()));
    options
        .trustedProxies()
        .ifPresent(proxies -> fromProxies(tomcat.getEngine().getPipeline(), proxies));
  }

  /**
   * HTTPS on TLS 1.2 or 1.3. A client certificate is asked for, not required (secret clients keep
   * working), and its chain is not checked here ({@code optional_no_ca}): a self-signed one (RFC
   * 8705 §2.2) must reach the service, which checks what each client registered.
   */
  static void https(Connector connector, ServerKeyStore.Opened keyStore) {
    SSLHostConfig config = new SSLHostConfig();
    config.setProtocols("TLSv1.2+TLSv1.3");
    config.setCertificateVerification("optional_no_ca");
    config.setTrustManagerClassName(AnyClientCertificate.class.getName()); // see its javadoc
    SSLHostConfigCertificate certificate =
        new SSLHostConfigCertificate(config, SSLHostConfigCertificate.Type.UNDEFINED);
    certificate.setCertificateKeystore(keyStore.store());
    certificate.setCertificateKeystorePassword(keyStore.password());
    config.addCertificate(certificate);
    connector.setProperty("SSLEnabled", "true");
    connector.setScheme("https");
    connector.setSecure(true);
    connector.addSslHostConfig(config);
  }

  /**
   * A proxy that ended TLS passes the certificate in a header: the gate removes SSLValve's headers
   * from anyone else, then SSLValve parses the PEM into the attribute. No RemoteIpValve: its
   * internalProxies do not gate SSLValve, and the service resolves {@code X-Forwarded-For} itself
   * ({@code identity/trustedProxies}), which a rewritten remote address would confuse.
   */
  static void fromProxies(Pipeline pipeline, Pattern proxies) {
    TrustedProxyHeaders gate = new TrustedProxyHeaders();
    gate.setTrustedProxies(proxies.pattern());
    pipeline.addValve(gate);
    pipeline.addValve(new SSLValve());
  }
}
