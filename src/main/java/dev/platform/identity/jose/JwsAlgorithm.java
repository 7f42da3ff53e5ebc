package dev.platform.identity.jose;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Arrays;
import java.util.Optional;

/**
 * The JWS algorithms the service and its libraries sign and verify with (RFC 7518 §3.1), each with
 * its JCA name: the one {@code alg} → JCA table.
 */
public enum JwsAlgorithm {
  /** RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3). */
  RS256("SHA256withRSA", null),
  /** RSASSA-PSS with SHA-256 and MGF1 with SHA-256 (RFC 7518 §3.5). */
  PS256("RSASSA-PSS", new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1)),
  /** ECDSA on P-256 with SHA-256, as R || S (RFC 7518 §3.4), not the DER plain ECDSA makes. */
  ES256("SHA256withECDSAinP1363Format", null);

  private final String jcaName;
  private final AlgorithmParameterSpec parameters;

  JwsAlgorithm(String jcaName, AlgorithmParameterSpec parameters) {
    this.jcaName = jcaName;
    this.parameters = parameters;
  }

  /** The algorithm a header's {@code alg} names, if it is one of these. */
  public static Optional<JwsAlgorithm> named(String alg) {
    for (JwsAlgorithm known : values()) {
      if (known.name().equals(alg)) {
        return Optional.of(known);
      }
    }
    return Optional.empty();
  }

  /** The JCA's name of the signature algorithm. */
  public String jcaName() {
    return jcaName;
  }

  /** Whether the algorithm is ECDSA, whose keys are EC; else its keys are RSA. */
  public boolean isEcdsa() {
    return this == ES256;
  }

  /** A signature engine of the JDK's providers, set up for this algorithm. */
  public Signature engine() throws GeneralSecurityException {
    Signature engine = Signature.getInstance(jcaName);
    if (parameters != null) {
      engine.setParameter(parameters);
    }
    return engine;
  }

  /** An engine ready to sign with {@code key}. */
  public Signature signer(PrivateKey key) throws GeneralSecurityException {
    Signature signer = engine();
    signer.initSign(key);
    return signer;
  }

  /**
   * Whether {@code signature} is {@code key}'s signature of {@code input} by this algorithm. An
   * ECDSA signature whose r or s is out of range is refused before any provider sees it ({@link
   * #ecdsaInRange}); a malformed signature, or a key this algorithm cannot use, proves nothing.
   * RS256 and ES256 are verified by ACCP where it is usable ({@link Providers}), PS256 by the JDK.
   */
  public boolean verify(PublicKey key, byte[] input, byte[] signature) {
    if (isEcdsa()
        && !(key instanceof ECPublicKey ec && ecdsaInRange(signature, ec.getParams().getOrder()))) {
      return false;
    }
    try {
      Signature engine =
          switch (this) {
            case RS256 -> Signature.getInstance(jcaName, Providers.rsa());
            case ES256 -> Signature.getInstance(jcaName, Providers.ecdsa());
            case PS256 -> engine();
          };
      engine.initVerify(key);
      engine.update(input);
      return engine.verify(signature);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Whether a JWS ECDSA signature ({@code R || S}, each as long as the curve order, RFC 7518 §3.4)
   * has both values in [1, n - 1], as ECDSA verification requires (SEC 1 §4.1.4 step 1). Checked
   * here rather than trusted to the provider: JDK 17.0.0 to 17.0.2 accept r = s = 0 against any key
   * (CVE-2022-21449, "psychic signatures").
   *
   * @param order the curve order n of the key
   */
  public static boolean ecdsaInRange(byte[] signature, BigInteger order) {
    int half = (order.bitLength() + 7) / 8;
    if (signature.length != 2 * half) {
      return false;
    }
    BigInteger r = new BigInteger(1, Arrays.copyOfRange(signature, 0, half));
    BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, half, signature.length));
    return r.signum() > 0 && s.signum() > 0 && r.compareTo(order) < 0 && s.compareTo(order) < 0;
  }
}
