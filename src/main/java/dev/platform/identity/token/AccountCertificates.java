package dev.platform.identity.token;

import dev.platform.identity.account.ClientJwks;
import dev.platform.identity.verify.CertificateThumbprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The thumbprints of the certificates a {@code self_signed_tls_client_auth} account registered (RFC
 * 8705 §2.2), read from its stored set once and kept by the set's text, as {@link AccountKeys}
 * keeps parsed key sets.
 */
final class AccountCertificates {
  static final int MAX_PARSED = 1000;

  private final Map<String, List<String>> parsed =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<String>> eldest) {
          return size() > MAX_PARSED;
        }
      };

  /**
   * Whether {@code presented} is one of {@code thumbprints}: every one is compared, each in
   * constant time, so the time tells nothing about which one, or whether any, matched.
   */
  static boolean matchesAny(List<String> thumbprints, X509Certificate presented) {
    boolean matched = false;
    for (String thumbprint : thumbprints) {
      matched |= CertificateThumbprint.matches(thumbprint, presented);
    }
    return matched;
  }

  /** The thumbprints of the certificates in a stored set. */
  List<String> of(String jwks) {
    synchronized (parsed) {
      return parsed.computeIfAbsent(jwks, AccountCertificates::parse);
    }
  }

  private static List<String> parse(String jwks) {
    try {
      return ClientJwks.parseCertified(jwks.getBytes(StandardCharsets.UTF_8))
          .certificates()
          .stream()
          .map(CertificateThumbprint::of)
          .toList();
    } catch (IOException e) {
      // Checked when it was stored: a set that no longer parses is the database's fault.
      throw new UncheckedIOException("a stored certificate set no longer parses", e);
    }
  }
}
