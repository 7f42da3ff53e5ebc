package dev.platform.identity.key;

import java.security.PrivateKey;

/**
 * The key that signs now: the {@code kid} for the token header and the private key, decrypted once
 * per key-ring change (DESIGN decision 2), for RS256.
 */
public record CurrentKey(String kid, PrivateKey privateKey) {
  @Override
  public String toString() {
    return "CurrentKey[kid=" + kid + ", privateKey=(hidden)]";
  }
}
