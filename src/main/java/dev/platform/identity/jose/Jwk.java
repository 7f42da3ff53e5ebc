package dev.platform.identity.jose;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.EllipticCurve;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;

/**
 * The public keys a JWK describes (RFC 7518 §6.2 and §6.3), built once the members are read: RSA
 * from {@code n} and {@code e}, EC on P-256 from {@code x} and {@code y} with the point checked to
 * lie on the curve (an invalid point is refused, not trusted).
 */
public final class Jwk {
  private Jwk() {}

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
