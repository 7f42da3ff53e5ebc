package dev.platform.identity.token;

import dev.platform.identity.verify.BearerCheck;
import jakarta.servlet.http.HttpServletRequest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The TLS client certificate a request's connection presented, as the container (or a trusted
 * proxy's valve, docs/mutual-tls.md) leaves it: the client's own first, then whatever chain the
 * client sent after it (a proxy passes the client's own only). Not judged at TLS: {@code
 * self_signed_tls_client_auth} compares the client's own with the account's registered ones, {@code
 * tls_client_auth} builds a path from it to a trusted CA.
 *
 * @param chain the client's certificate first; never empty
 */
public record PresentedCertificate(List<X509Certificate> chain) {
  public PresentedCertificate {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a presented chain holds the client's certificate");
    }
  }

  /** The client's certificate and the chain it sent after it. */
  public static PresentedCertificate of(X509Certificate certificate, X509Certificate... chain) {
    List<X509Certificate> all = new ArrayList<>(List.of(certificate));
    all.addAll(List.of(chain));
    return new PresentedCertificate(all);
  }

  /** The client's certificate and chain, empty when it presented none. */
  public static Optional<PresentedCertificate> from(HttpServletRequest request) {
    if (!(request.getAttribute(BearerCheck.CERTIFICATE_ATTRIBUTE)
            instanceof X509Certificate[] chain)
        || chain.length == 0
        || chain[0] == null) {
      return Optional.empty();
    }
    List<X509Certificate> sent = new ArrayList<>();
    for (X509Certificate certificate : chain) {
      if (certificate == null) {
        break;
      }
      sent.add(certificate);
    }
    return Optional.of(new PresentedCertificate(sent));
  }

  /** The client's own certificate. */
  public X509Certificate certificate() {
    return chain.get(0);
  }
}
