package dev.platform.identity.console;

import dev.platform.identity.jose.DpopSigner;
import dev.platform.identity.jose.Jwk;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPrivateKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A session's DPoP key (RFC 9449): an EC P-256 pair made at sign-in, to which the session's token
 * is bound, and which signs a proof for each request of the session. It lives only in the sealed
 * session cookie, as its private scalar and public point (96 bytes, 128 characters of base64url):
 * the JDK rebuilds no public key from a scalar alone, and the point costs the cookie 86 characters,
 * not a computation on every request. Never shown by {@link #toString}.
 */
final class SessionKey {
  private static final int FIELD = 32;
  private static final Pattern ENCODED = Pattern.compile("[A-Za-z0-9_-]{128}");
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final KeyPair pair;

  private SessionKey(KeyPair pair) {
    this.pair = pair;
  }

  /** A new key of its own for one session. */
  static SessionKey generate(SecureRandom random) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(Jwk.p256(), random);
      return new SessionKey(generator.generateKeyPair());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("EC P-256 is unavailable", e);
    }
  }

  /** What the cookie keeps: scalar, x and y, 32 bytes each, base64url without padding. */
  String encoded() {
    ByteBuffer bytes = ByteBuffer.allocate(3 * FIELD);
    bytes.put(fixed(((ECPrivateKey) pair.getPrivate()).getS()));
    ECPublicKey key = (ECPublicKey) pair.getPublic();
    bytes.put(fixed(key.getW().getAffineX())).put(fixed(key.getW().getAffineY()));
    return BASE64URL.encodeToString(bytes.array());
  }

  /** The key {@link #encoded} wrote; empty for anything else, such as a point off the curve. */
  static Optional<SessionKey> of(String encoded) {
    if (!ENCODED.matcher(encoded).matches()) {
      return Optional.empty();
    }
    byte[] bytes = Base64.getUrlDecoder().decode(encoded);
    try {
      BigInteger scalar = number(bytes, 0);
      if (scalar.signum() == 0 || scalar.compareTo(Jwk.p256().getOrder()) >= 0) {
        return Optional.empty();
      }
      return Optional.of(
          new SessionKey(
              new KeyPair(
                  Jwk.p256(number(bytes, 1), number(bytes, 2)),
                  KeyFactory.getInstance("EC")
                      .generatePrivate(new ECPrivateKeySpec(scalar, Jwk.p256())))));
    } catch (GeneralSecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * What signs the session's proofs.
   *
   * @throws IllegalStateException when the scalar is not the point's: never for a key this service
   *     made and sealed
   */
  DpopSigner signer(SecureRandom random) {
    return new DpopSigner(pair, random);
  }

  private static BigInteger number(byte[] bytes, int index) {
    return new BigInteger(1, Arrays.copyOfRange(bytes, index * FIELD, (index + 1) * FIELD));
  }

  private static byte[] fixed(BigInteger value) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[FIELD];
    int length = Math.min(raw.length, FIELD);
    System.arraycopy(raw, raw.length - length, out, FIELD - length, length);
    return out;
  }

  /** Says what it is, never the key. */
  @Override
  public String toString() {
    return "SessionKey[ES256]";
  }
}
