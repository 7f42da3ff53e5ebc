package dev.platform.identity.jose;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Server nonces for DPoP proofs (RFC 9449 §8), with no state and no write: the nonce of a period is
 * the first 16 bytes of HMAC-SHA-256, under a key every node holds, of the period's number since
 * the epoch. So every node with the key gives out and takes the same nonces without talking to the
 * others, and the nonce changes every period by itself. The nonce of the period before and of the
 * one after are taken too: a client keeps the one it was given for up to a period, and two nodes'
 * clocks may straddle a boundary.
 *
 * <p>A nonce is not a secret: it tells a client when its proof was made at the latest. The key is
 * one, since whoever holds it can make the nonces of future periods and so proofs that pass for
 * fresh later. Immutable and thread-safe.
 */
public final class DpopNonces {
  /** How long one nonce is given out, unless said otherwise. */
  public static final Duration DEFAULT_PERIOD = Duration.ofMinutes(5);

  private static final String HMAC = "HmacSHA256";
  private static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 16;
  private static final byte[] LABEL = "DPoP nonce v1 ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DERIVATION =
      "dev.platform.identity DPoP nonce key v1".getBytes(StandardCharsets.US_ASCII);
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final SecretKeySpec key;
  private final Clock clock;
  private final long periodMillis;

  /**
   * @param key at least 32 bytes, the same on every node that must take the same nonces; copied
   * @param period how long each nonce is given out, at least a second
   */
  public DpopNonces(byte[] key, Clock clock, Duration period) {
    if (key.length < KEY_BYTES) {
      throw new IllegalArgumentException("a DPoP nonce key needs at least 32 bytes");
    }
    if (period.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("a DPoP nonce period must be at least a second");
    }
    this.key = new SecretKeySpec(key.clone(), HMAC);
    this.clock = Objects.requireNonNull(clock);
    this.periodMillis = period.toMillis();
  }

  /**
   * Nonces of a key derived from {@code secret}, a key of at least 256 random bits that every node
   * holds, by HKDF-Expand (RFC 5869 §2.3) with this use's own label, so the nonce key is not the
   * secret itself and says nothing of it.
   */
  public static DpopNonces derivedFrom(SecretKey secret, Clock clock, Duration period) {
    try {
      Mac hmac = Mac.getInstance(HMAC);
      hmac.init(new SecretKeySpec(secret.getEncoded(), HMAC));
      hmac.update(DERIVATION);
      return new DpopNonces(hmac.doFinal(new byte[] {1}), clock, period);
    } catch (InvalidKeyException e) {
      throw new IllegalArgumentException("the secret cannot key an HMAC", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }

  /** Nonces of a random key: for one node alone, such as one API's verifier. */
  public static DpopNonces random(Clock clock, Duration period) {
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    return new DpopNonces(key, clock, period);
  }

  /** The nonce to give out now ({@code DPoP-Nonce}). */
  public String current() {
    return BASE64URL.encodeToString(nonce(period()));
  }

  /** Whether {@code sent} is the nonce of this period, the one before or the one after. */
  public boolean accepts(String sent) {
    if (sent == null || sent.length() != 22) {
      return false;
    }
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(sent);
    } catch (IllegalArgumentException e) {
      return false;
    }
    long now = period();
    boolean taken = false;
    for (long period = now - 1; period <= now + 1; period++) {
      // Every candidate is compared, in constant time, whichever matches.
      taken |= MessageDigest.isEqual(given, nonce(period));
    }
    return taken;
  }

  private long period() {
    return Math.floorDiv(clock.millis(), periodMillis);
  }

  private byte[] nonce(long period) {
    try {
      Mac hmac = Mac.getInstance(HMAC);
      hmac.init(key);
      hmac.update(LABEL);
      hmac.update(ByteBuffer.allocate(Long.BYTES).putLong(period).array());
      return Arrays.copyOf(hmac.doFinal(), NONCE_BYTES);
    } catch (InvalidKeyException e) {
      throw new IllegalArgumentException("the DPoP nonce key cannot key an HMAC", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }
}
