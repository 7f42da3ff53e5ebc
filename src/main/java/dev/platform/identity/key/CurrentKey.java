package dev.platform.identity.key;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;

/**
 * The key that signs now: the {@code kid} for the token header, the private key, decrypted once per
 * key-ring change (DESIGN decision 2) or a handle into a PKCS#11 token, and the provider that signs
 * with it.
 *
 * @param inToken whether the private key is in a PKCS#11 token
 */
public record CurrentKey(String kid, PrivateKey privateKey, RsaProvider provider, boolean inToken) {
  /** A new RS256 engine, ready to sign with this key. */
  public Signature rs256() throws GeneralSecurityException {
    Signature rs256 = provider.rs256();
    rs256.initSign(privateKey);
    return rs256;
  }

  @Override
  public String toString() {
    return "CurrentKey[kid=" + kid + ", privateKey=(hidden), provider=" + provider.name() + "]";
  }
}
