package dev.platform.identity.account;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * HMAC-SHA-256 of a client secret under the server's pepper: the database alone cannot be used to
 * test guesses, and comparison takes constant time (DESIGN decision 1).
 */
public final class SecretDigest {
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKey pepper;

  public SecretDigest(SecretKey pepper) {
    this.pepper = pepper;
  }

  /** The digest to store for {@code secret}, in base64url. */
  public String of(String secret) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac(secret));
  }

  /** Whether {@code presented} is the secret whose digest is {@code stored}, in constant time. */
  public boolean matches(String presented, String stored) {
    byte[] expected = Base64.getUrlDecoder().decode(stored);
    return MessageDigest.isEqual(mac(presented), expected);
  }

  /**
   * Which of an account's two digests {@code presented} is the secret of (issue 19). The HMAC is
   * computed once and compared in constant time against both, always, so the time taken tells
   * neither which matched nor whether there was a previous secret: without one, pass a digest
   * nobody's secret has, such as a decoy's.
   */
  public Match match(String presented, String current, String previous) {
    byte[] mac = mac(presented);
    boolean isCurrent = MessageDigest.isEqual(mac, Base64.getUrlDecoder().decode(current));
    boolean isPrevious = MessageDigest.isEqual(mac, Base64.getUrlDecoder().decode(previous));
    return isCurrent ? Match.CURRENT : isPrevious ? Match.PREVIOUS : Match.NONE;
  }

  /** The answer of {@link #match}: the secret presented, by its place in the account. */
  public enum Match {
    CURRENT,
    PREVIOUS,
    NONE
  }

  private byte[] mac(String secret) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(pepper);
      return mac.doFinal(secret.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }
}
