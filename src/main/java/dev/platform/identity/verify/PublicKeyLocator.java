package dev.platform.identity.verify;

import java.security.PublicKey;
import java.util.Optional;

/**
 * Finds the public key that verifies a token by the {@code kid} of the token's header (SPEC 2.3,
 * 5.4 step 2): the seam between {@link BearerVerifier} and wherever keys live, such as the issuer's
 * in-process key ring or a cache of {@code GET /api/public-keys}.
 *
 * <p>Implementations must be thread-safe; they may block (a remote key set may fetch once on an
 * unknown {@code kid}). The key must be an RSA key of at least 2048 bits, or the token is refused.
 */
@FunctionalInterface
public interface PublicKeyLocator {
  /**
   * The key with this id.
   *
   * @param kid the token's {@code kid}, never null or empty
   * @return the key, or empty when no key has this id (the token is then refused with 401); never
   *     null. An unchecked exception thrown here (say, the key source is unreachable) is not a
   *     verdict on the token: it propagates unchanged out of {@link BearerVerifier}, so the caller
   *     can answer 5xx rather than tell the client its token is invalid.
   */
  Optional<PublicKey> find(String kid);
}
