package dev.platform.identity.token;

import dev.platform.identity.verify.BearerCheck;
import jakarta.servlet.http.HttpServletRequest;
import java.security.cert.X509Certificate;
import java.util.Optional;

/**
 * The TLS client certificate a request's connection presented, as the container (or a trusted
 * proxy's valve, docs/mutual-tls.md) leaves it: the client's own, first of the chain. Not judged at
 * TLS: {@code self_signed_tls_client_auth} compares it with the account's registered ones.
 */
public final class PresentedCertificate {
  private PresentedCertificate() {}

  /** The client's certificate, empty when it presented none. */
  public static Optional<X509Certificate> of(HttpServletRequest request) {
    return Optional.ofNullable(
        BearerCheck.presentedCertificate(request.getAttribute(BearerCheck.CERTIFICATE_ATTRIBUTE)));
  }
}
