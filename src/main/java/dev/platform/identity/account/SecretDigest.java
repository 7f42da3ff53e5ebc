package dev.platform.identity.account;

import dev.platform.identity.config.KeyId;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * HMAC-SHA-256 of a client secret under the server's pepper: the database alone cannot be used to
 * test guesses, and comparison takes constant time (DESIGN decision 1). Each digest names its
 * pepper by id, so the pepper can be rotated; new digests are always under the current one, and the
 * previous ones only check what was digested before the rotation.
 */
public final class SecretDigest {
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKey current;
  private final String currentId;

  /** Every pepper this node has, by id, the current one first. */
  private final Map<String, SecretKey> peppers = new LinkedHashMap<>();

  /** Digests under {@code pepper} alone. */
  public SecretDigest(SecretKey pepper) {
    this(pepper, List.of());
  }

  /** Digests under {@code current}; also checks digests made under {@code previous} ones. */
  public SecretDigest(SecretKey current, List<SecretKey> previous) {
    this.current = current;
    this.currentId = KeyId.of(current, KeyId.Purpose.SECRET_PEPPER);
    peppers.put(currentId, current);
    previous.forEach(
        pepper -> peppers.putIfAbsent(KeyId.of(pepper, KeyId.Purpose.SECRET_PEPPER), pepper));
  }

  /** A stored digest in base64url, and the id of the pepper it was made under. */
  public record Digest(String value, String pepperId) {}

  /**
   * What the pepper check row ({@link PepperCheck}) holds when it is under the current pepper: the
   * digest of its fixed label.
   */
  public String checkValue() {
    return of(PepperCheck.LABEL).value();
  }

  /** The id that digests under the current pepper carry. */
  public String currentPepperId() {
    return currentId;
  }

  /** The ids of every pepper this node has: the current one and the previous ones. */
  Set<String> pepperIds() {
    return Set.copyOf(peppers.keySet());
  }

  /** The digest to store for {@code secret}: always under the current pepper. */
  public Digest of(String secret) {
    return new Digest(encode(mac(current, secret)), currentId);
  }

  /**
   * Whether {@code presented} is the secret whose digest is {@code stored}, in constant time; never
   * when its pepper is not one this node has.
   */
  public boolean matches(String presented, Digest stored) {
    SecretKey pepper = peppers.get(stored.pepperId());
    boolean equal =
        MessageDigest.isEqual(
            mac(pepper == null ? current : pepper, presented), decode(stored.value()));
    return pepper != null && equal;
  }

  /**
   * The id of the pepper, among this node's, under which {@code text}'s digest is {@code value}.
   * Meant for fixed, public text (the pepper check): it computes one HMAC per pepper.
   */
  Optional<String> pepperOf(String text, String value) {
    return peppers.entrySet().stream()
        .filter(pepper -> MessageDigest.isEqual(mac(pepper.getValue(), text), decode(value)))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /**
   * Which of an account's two digests {@code presented} is the secret of. The HMAC is computed
   * once, under the pepper the current digest names, and compared in constant time against both,
   * always, so the time taken tells neither which matched nor whether there was a previous secret:
   * without one, pass a digest nobody's secret has under the current pepper, such as a decoy's.
   * Only when the previous digest names another pepper (an overlap that spans a pepper rotation,
   * which is rare) is a second HMAC computed. A digest under a pepper this node does not have never
   * matches; the HMAC is then computed under the current pepper, for the usual time.
   */
  public Match match(String presented, Digest current, Digest previous) {
    SecretKey currentPepper = peppers.get(current.pepperId());
    byte[] mac = mac(currentPepper == null ? this.current : currentPepper, presented);
    boolean isCurrent =
        MessageDigest.isEqual(mac, decode(current.value())) && currentPepper != null;
    SecretKey previousPepper = peppers.get(previous.pepperId());
    byte[] previousMac =
        previousPepper == null || previous.pepperId().equals(current.pepperId())
            ? mac
            : mac(previousPepper, presented);
    boolean isPrevious =
        MessageDigest.isEqual(previousMac, decode(previous.value())) && previousPepper != null;
    return isCurrent ? Match.CURRENT : isPrevious ? Match.PREVIOUS : Match.NONE;
  }

  /** The answer of {@link #match}: the secret presented, by its place in the account. */
  public enum Match {
    CURRENT,
    PREVIOUS,
    NONE
  }

  private static String encode(byte[] mac) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
  }

  private static byte[] decode(String value) {
    return Base64.getUrlDecoder().decode(value);
  }

  private static byte[] mac(SecretKey pepper, String secret) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(pepper);
      return mac.doFinal(secret.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }
}
