package dev.platform.identity.verify;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Objects;

/**
 * The SHA-256 thumbprint of an X.509 certificate, as RFC 8705 §3.1 binds a token to one: the
 * base64url encoding, without padding, of the SHA-256 digest of the certificate's DER encoding; the
 * value of a token's {@code cnf} member {@code x5t#S256}. For the issuer that writes it and the
 * verifier that checks it alike.
 */
public final class CertificateThumbprint {
  /** The length of a thumbprint: 32 bytes in unpadded base64url. */
  static final int LENGTH = 43;

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private CertificateThumbprint() {}

  /**
   * The thumbprint of {@code certificate}: its {@code x5t#S256}.
   *
   * @throws IllegalArgumentException when the certificate has no DER encoding
   */
  public static String of(X509Certificate certificate) {
    return BASE64URL.encodeToString(digest(certificate));
  }

  /**
   * Whether {@code thumbprint} is {@code certificate}'s, compared in constant time; false for a
   * thumbprint of another shape than {@link #of}'s.
   */
  public static boolean matches(String thumbprint, X509Certificate certificate) {
    byte[] expected = decoded(Objects.requireNonNull(thumbprint, "thumbprint"));
    return expected != null && MessageDigest.isEqual(expected, digest(certificate));
  }

  /** The SHA-256 digest of the certificate's DER encoding. */
  static byte[] digest(X509Certificate certificate) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    } catch (CertificateEncodingException e) {
      throw new IllegalArgumentException("the certificate has no DER encoding", e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /**
   * The 32 bytes of a thumbprint, or null when it is not 43 characters of the base64url alphabet
   * that encode 32 bytes exactly (so its last character carries no stray bits): one spelling per
   * digest.
   */
  static byte[] decoded(String thumbprint) {
    if (thumbprint.length() != LENGTH) {
      return null;
    }
    for (int i = 0; i < LENGTH; i++) {
      char c = thumbprint.charAt(i);
      boolean alphabet =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!alphabet) {
        return null;
      }
    }
    byte[] bytes = Base64.getUrlDecoder().decode(thumbprint);
    return BASE64URL.encodeToString(bytes).equals(thumbprint) ? bytes : null;
  }
}
