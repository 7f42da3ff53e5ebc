package dev.platform.identity.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.oauth2.sdk.dpop.DefaultDPoPProofFactory;
import com.nimbusds.oauth2.sdk.id.JWTID;
import com.nimbusds.oauth2.sdk.token.DPoPAccessToken;
import com.nimbusds.openid.connect.sdk.Nonce;
import dev.platform.identity.jose.DpopProofs;
import io.jsonwebtoken.JwtBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * DPoP proofs (RFC 9449 §4) as clients make them: by the Nimbus OAuth SDK's {@code
 * DefaultDPoPProofFactory}, or by hand for the proofs no honest client makes. Public for the tests
 * of the filters and of {@code AdminAuth}.
 */
public final class TestProofs {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private TestProofs() {}

  /** A P-256 pair. */
  public static KeyPair ecKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The pair as a JWK with its private part: EC P-256 or RSA. */
  public static JWK jwk(KeyPair pair) {
    if (pair.getPublic() instanceof ECPublicKey ec) {
      return new ECKey.Builder(Curve.P_256, ec)
          .privateKey((ECPrivateKey) pair.getPrivate())
          .build();
    }
    return new RSAKey.Builder((RSAPublicKey) pair.getPublic())
        .privateKey((RSAPrivateKey) pair.getPrivate())
        .build();
  }

  /** RFC 7638: the key's thumbprint, as Nimbus computes it; a token's {@code cnf.jkt}. */
  public static String thumbprint(KeyPair pair) {
    try {
      return jwk(pair).computeThumbprint().toString();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code token} bound to {@code pair} (RFC 9449 §6.1): {@code "cnf": {"jkt": thumbprint}}. */
  public static JwtBuilder boundToKey(JwtBuilder token, KeyPair pair) {
    return token.claim("cnf", Map.of("jkt", thumbprint(pair)));
  }

  /**
   * A proof by Nimbus of {@code pair} (ES256 for EC, RS256 for RSA), a new {@code jti}, for {@code
   * accessToken} ({@code ath}) and {@code nonce} when not null.
   */
  public static String nimbus(
      KeyPair pair, String method, URI uri, Instant issuedAt, String accessToken, String nonce) {
    try {
      JWK jwk = jwk(pair);
      JWSAlgorithm alg = jwk instanceof ECKey ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256;
      return new DefaultDPoPProofFactory(jwk, alg)
          .createDPoPJWT(
              new JWTID(),
              method,
              uri,
              Date.from(issuedAt),
              accessToken == null ? null : new DPoPAccessToken(accessToken),
              nonce == null ? null : new Nonce(nonce))
          .serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A proof by Nimbus of {@code pair} for {@code accessToken}, without nonce. */
  public static String nimbus(
      KeyPair pair, String method, URI uri, Instant issuedAt, String accessToken) {
    return nimbus(pair, method, uri, issuedAt, accessToken, null);
  }

  /** The header of a hand-made ES256 proof of {@code pair}'s public key. */
  public static Map<String, Object> header(KeyPair pair) {
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("typ", "dpop+jwt");
    header.put("alg", "ES256");
    header.put("jwk", jwk(pair).toPublicJWK().toJSONObject());
    return header;
  }

  /** The claims of a hand-made proof, a new {@code jti}. */
  public static Map<String, Object> claims(
      String method, URI uri, Instant issuedAt, String accessToken) {
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("jti", UUID.randomUUID().toString());
    claims.put("htm", method);
    claims.put("htu", uri.toString());
    claims.put("iat", issuedAt.getEpochSecond());
    claims.put("ath", DpopProofs.accessTokenHash(accessToken));
    return claims;
  }

  /** {@code header} and {@code claims} signed ES256 with {@code key}. */
  public static String es256(
      PrivateKey key, Map<String, Object> header, Map<String, Object> claims) {
    String input = encode(header) + "." + encode(claims);
    try {
      Signature signer = Signature.getInstance("SHA256withECDSAinP1363Format");
      signer.initSign(key);
      signer.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + B64.encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code header} and {@code claims} with {@code signature} as the third part, as sent. */
  public static String unsigned(
      Map<String, Object> header, Map<String, Object> claims, String signature) {
    return encode(header) + "." + encode(claims) + "." + signature;
  }

  static String encode(Map<String, Object> members) {
    try {
      return B64.encodeToString(JSON.writeValueAsBytes(members));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
