package dev.platform.identity.it;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;

/**
 * Issue 22: a private_key_jwt client's key pair in the ITs, its public JWK, and assertions it signs
 * with Nimbus JOSE+JWT. EC keys sign ES256, RSA keys RS256.
 */
record ClientKeyPair(KeyPair pair, String kid) {
  static final String ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

  static ClientKeyPair ec(String kid) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return new ClientKeyPair(generator.generateKeyPair(), kid);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static ClientKeyPair rsa(String kid) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return new ClientKeyPair(generator.generateKeyPair(), kid);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  boolean isEc() {
    return pair.getPublic() instanceof ECPublicKey;
  }

  /** The public JWK, as a client registers it. */
  JWK jwk() {
    return isEc()
        ? new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic()).keyID(kid).build()
        : new RSAKey.Builder((RSAPublicKey) pair.getPublic()).keyID(kid).build();
  }

  /** {@code {"keys":[...]}} of this key alone. */
  String jwks() {
    return "{\"keys\":[" + jwk().toJSONString() + "]}";
  }

  /** A fresh assertion of {@code clientId} for {@code audience}: 60 s, a random jti. */
  String assertion(String clientId, String audience) {
    Instant now = Instant.now();
    return sign(
        new JWTClaimsSet.Builder()
            .issuer(clientId)
            .subject(clientId)
            .audience(audience)
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plusSeconds(60)))
            .jwtID(UUID.randomUUID().toString())
            .build());
  }

  String sign(JWTClaimsSet claims) {
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(isEc() ? JWSAlgorithm.ES256 : JWSAlgorithm.RS256)
                  .keyID(kid)
                  .build(),
              claims);
      jwt.sign(
          isEc()
              ? new ECDSASigner(pair.getPrivate(), Curve.P_256)
              : new RSASSASigner(pair.getPrivate()));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The token request's form with {@code assertion}. */
  static String form(String assertion) {
    return "grant_type=client_credentials&client_assertion_type="
        + ASSERTION_TYPE
        + "&client_assertion="
        + assertion;
  }
}
