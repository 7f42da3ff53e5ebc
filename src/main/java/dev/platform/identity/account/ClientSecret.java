package dev.platform.identity.account;

import java.security.SecureRandom;
import java.util.Base64;

/** Client secrets: generated here, shown once, never stored (DESIGN decision 1). */
public final class ClientSecret {
  /** 256 bits: far beyond guessing, so a fast digest is enough. */
  private static final int BYTES = 32;

  private ClientSecret() {}

  /**
   * A new secret: 256 random bits in base64url without padding, so form-encoding leaves it as it is
   * and clients that skip the RFC 6749 Appendix B encoding in Basic still work.
   */
  public static String generate(SecureRandom random) {
    byte[] bytes = new byte[BYTES];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
