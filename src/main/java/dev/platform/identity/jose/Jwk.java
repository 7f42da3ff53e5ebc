package dev.platform.identity.jose;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.EllipticCurve;
import java.security.spec.RSAPublicKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The public keys a JWK describes (RFC 7518 §6.2 and §6.3), built once the members are read: RSA
 * from {@code n} and {@code e}, EC on P-256 from {@code x} and {@code y} with the point checked to
 * lie on the curve (an invalid point is refused, not trusted).
 */
public final class Jwk {
  /** RFC 7518 §6.2.2 and §6.3.2: the members that make a JWK private (and {@code k}, secret). */
  public static final List<String> PRIVATE_MEMBERS =
      List.of("d", "p", "q", "dp", "dq", "qi", "oth", "k");

  /** The shortest RSA modulus taken, in bits. */
  public static final int MIN_RSA_BITS = 2048;

  /** The longest RSA modulus taken, in bits: a longer one makes every check slow. */
  public static final int MAX_RSA_BITS = 8192;

  /** The longest RSA exponent taken, in bits. */
  public static final int MAX_EXPONENT_BITS = 32;

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private Jwk() {}

  /**
   * The RSA key of a JWK's {@code n} and {@code e}, by the rules every reader of a client's key
   * shares: {@value #MIN_RSA_BITS} to {@value #MAX_RSA_BITS} bits, an odd exponent of 3 or more and
   * at most {@value #MAX_EXPONENT_BITS} bits, no leading zero octets (RFC 7518 §6.3.1).
   *
   * @throws IllegalArgumentException saying why, in words that follow "the key", such as "has no
   *     'n'"
   */
  public static PublicKey rsa(JsonNode jwk) {
    BigInteger modulus = unsigned(jwk, "n");
    BigInteger exponent = unsigned(jwk, "e");
    // A large exponent makes every verification slow, for the client and its decoy-less timing.
    if (exponent.bitLength() > MAX_EXPONENT_BITS) {
      throw refused("has an RSA exponent of more than " + MAX_EXPONENT_BITS + " bits");
    }
    if (modulus.bitLength() < MIN_RSA_BITS || modulus.bitLength() > MAX_RSA_BITS) {
      throw refused(
          "is an RSA key of "
              + modulus.bitLength()
              + " bits: "
              + MIN_RSA_BITS
              + " to "
              + MAX_RSA_BITS
              + " are taken");
    }
    if (!exponent.testBit(0) || exponent.compareTo(BigInteger.valueOf(3)) < 0) {
      throw refused("has an RSA exponent that is not an odd number of 3 or more");
    }
    try {
      return rsa(modulus, exponent);
    } catch (GeneralSecurityException e) {
      throw refused("is not a valid RSA key: " + e.getMessage());
    }
  }

  /**
   * The P-256 key of a JWK's {@code crv}, {@code x} and {@code y}: P-256 only, each coordinate its
   * full 32 bytes (RFC 7518 §6.2.1.2), the point on the curve (an invalid point is refused, not
   * trusted).
   *
   * @throws IllegalArgumentException saying why, in words that follow "the key"
   */
  public static PublicKey p256(JsonNode jwk) {
    String crv = text(jwk, "crv");
    if (!"P-256".equals(crv)) {
      throw refused("has crv '" + quoted(String.valueOf(crv)) + "': only P-256 is taken");
    }
    BigInteger x = coordinate(jwk, "x");
    BigInteger y = coordinate(jwk, "y");
    if (!onP256(x, y)) {
      throw refused("has a point that is not on the P-256 curve");
    }
    try {
      return p256(x, y);
    } catch (GeneralSecurityException e) {
      throw refused("is not a valid EC key: " + e.getMessage());
    }
  }

  /**
   * The JWK SHA-256 thumbprint of an RSA or P-256 key (RFC 7638 §3): its {@link #publicJwk} hashed,
   * base64url without padding. Made from the key, not from the text it came in, so that one key has
   * one thumbprint however its JWK spelt it (RFC 7638 §3.3: minimal octets for RSA, full-length
   * coordinates for EC).
   *
   * @throws IllegalArgumentException for another kind of key
   */
  public static String thumbprint(PublicKey key) {
    try {
      return BASE64URL.encodeToString(
          MessageDigest.getInstance("SHA-256")
              .digest(publicJwk(key).getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /**
   * The public JWK of an RSA or P-256 key with its required members only ({@code e, kty, n}; {@code
   * crv, kty, x, y}), in lexicographic order and without white space (RFC 7638 §3.2): what a DPoP
   * proof's header carries as {@code jwk}, and what its thumbprint hashes.
   *
   * @throws IllegalArgumentException for another kind of key
   */
  public static String publicJwk(PublicKey key) {
    if (key instanceof RSAPublicKey rsa) {
      return "{\"e\":\""
          + unsignedBase64url(rsa.getPublicExponent())
          + "\",\"kty\":\"RSA\",\"n\":\""
          + unsignedBase64url(rsa.getModulus())
          + "\"}";
    }
    if (key instanceof ECPublicKey ec && isP256(ec.getParams())) {
      return "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\""
          + coordinateBase64url(ec.getW().getAffineX())
          + "\",\"y\":\""
          + coordinateBase64url(ec.getW().getAffineY())
          + "\"}";
    }
    throw new IllegalArgumentException("only RSA and P-256 keys have a thumbprint here");
  }

  private static String unsignedBase64url(BigInteger value) {
    byte[] bytes = value.toByteArray();
    return BASE64URL.encodeToString(
        bytes.length > 1 && bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes);
  }

  private static String coordinateBase64url(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] full = new byte[32];
    int length = Math.min(bytes.length, 32);
    System.arraycopy(bytes, bytes.length - length, full, 32 - length, length);
    return BASE64URL.encodeToString(full);
  }

  /** The P-256 domain parameters (RFC 7518 §3.4 and §6.2.1.1), looked up once. */
  public static ECParameterSpec p256() {
    return P256.SPEC;
  }

  /** Whether {@code params} are P-256's. */
  public static boolean isP256(ECParameterSpec params) {
    ECParameterSpec p256 = P256.SPEC;
    return params != null
        && params.getCurve().equals(p256.getCurve())
        && params.getGenerator().equals(p256.getGenerator())
        && params.getOrder().equals(p256.getOrder());
  }

  /**
   * The RSA public key of modulus {@code n} and exponent {@code e}.
   *
   * @throws GeneralSecurityException when the JDK refuses them
   */
  public static PublicKey rsa(BigInteger n, BigInteger e) throws GeneralSecurityException {
    return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e));
  }

  /**
   * The P-256 public key of point ({@code x}, {@code y}).
   *
   * @throws GeneralSecurityException when the point is not on the curve, or the JDK refuses it
   */
  public static PublicKey p256(BigInteger x, BigInteger y) throws GeneralSecurityException {
    if (!onP256(x, y)) {
      throw new GeneralSecurityException("the point is not on the P-256 curve");
    }
    return KeyFactory.getInstance("EC")
        .generatePublic(new ECPublicKeySpec(new ECPoint(x, y), P256.SPEC));
  }

  /** Whether ({@code x}, {@code y}) is a point of P-256: y² = x³ + ax + b (mod p). */
  public static boolean onP256(BigInteger x, BigInteger y) {
    EllipticCurve curve = P256.SPEC.getCurve();
    BigInteger p = ((ECFieldFp) curve.getField()).getP();
    if (x.signum() < 0 || y.signum() < 0 || x.compareTo(p) >= 0 || y.compareTo(p) >= 0) {
      return false;
    }
    BigInteger left = y.modPow(BigInteger.TWO, p);
    BigInteger right = x.pow(3).add(curve.getA().multiply(x)).add(curve.getB()).mod(p);
    return left.equals(right);
  }

  /**
   * A key member's base64url text decoded. Padding is tolerated here, unlike in a JWS: a key set is
   * read once per fetch or registration, never signed over, so a second spelling of it gives no
   * second meaning, and the key sets registered before this rule keep their keys.
   *
   * @throws IllegalArgumentException when it is not base64url
   */
  public static byte[] base64url(String text) {
    return Base64.getUrlDecoder().decode(text);
  }

  /** RFC 7518 §6.2.1.2: x and y are the full 32 bytes of P-256. */
  private static BigInteger coordinate(JsonNode jwk, String member) {
    byte[] bytes = decoded(jwk, member);
    if (bytes.length != 32) {
      throw refused("has '" + member + "' of " + bytes.length + " bytes, not 32");
    }
    return new BigInteger(1, bytes);
  }

  /** RFC 7518 §6.3.1: the minimal octets, so no zeros in front (which would only add size). */
  private static BigInteger unsigned(JsonNode jwk, String member) {
    byte[] bytes = decoded(jwk, member);
    if (bytes.length == 0) {
      throw refused("has an empty '" + member + "'");
    }
    if (bytes[0] == 0) {
      throw refused("has a '" + member + "' with leading zero octets");
    }
    return new BigInteger(1, bytes);
  }

  private static byte[] decoded(JsonNode jwk, String member) {
    String text = text(jwk, member);
    if (text == null) {
      throw refused("has no '" + member + "'");
    }
    try {
      return base64url(text);
    } catch (IllegalArgumentException e) {
      throw refused("has a '" + member + "' that is not base64url");
    }
  }

  /** A member's text, null when absent; a member that is present but not a string is refused. */
  private static String text(JsonNode jwk, String member) {
    JsonNode value = jwk.get(member);
    if (value == null) {
      return null;
    }
    if (!value.isTextual()) {
      throw refused("has a '" + member + "' that is not a string");
    }
    return value.asText();
  }

  /**
   * A value a client chose, as a refusal repeats it: at most 40 characters, and only printable
   * ASCII, since the text may reach a log line.
   */
  public static String quoted(String value) {
    String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
    return shown.replaceAll("[^\\x20-\\x7e]", "?");
  }

  private static IllegalArgumentException refused(String reason) {
    return new IllegalArgumentException(reason);
  }

  private static final class P256 {
    static final ECParameterSpec SPEC = lookUp();

    private static ECParameterSpec lookUp() {
      try {
        AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec("secp256r1"));
        return parameters.getParameterSpec(ECParameterSpec.class);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("this JVM has no P-256 curve", e);
      }
    }
  }
}
