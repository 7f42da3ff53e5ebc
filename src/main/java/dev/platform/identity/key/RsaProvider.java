package dev.platform.identity.key;

import dev.platform.identity.config.Settings.RsaEngine;
import dev.platform.identity.jose.Providers;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.util.logging.Logger;

/**
 * The JCA provider that makes the RSA signatures: Amazon Corretto Crypto Provider (AWS-LC) where
 * its native library loads, else the JDK's ({@link Providers}, the choice the verifier makes too).
 * Never installed globally: the private key is imported through this provider's own {@code
 * KeyFactory} once per key-ring change (ACCP re-imports a foreign key object on every signature),
 * and the token issuer signs with this provider's {@link #rs256} engine.
 */
public final class RsaProvider {
  private static final Logger LOG = Logger.getLogger(RsaProvider.class.getName());

  private final Provider provider;

  private RsaProvider(Provider provider) {
    this.provider = provider;
  }

  /** The JDK's provider. */
  static RsaProvider jdk() {
    return new RsaProvider(null);
  }

  /** {@code provider}, which holds its own keys (a PKCS#11 token's). */
  static RsaProvider of(Provider provider) {
    return new RsaProvider(provider);
  }

  /** The provider {@code engine} asks for, or the JDK's when ACCP cannot load here; logs which. */
  public static RsaProvider choose(RsaEngine engine) {
    if (engine == RsaEngine.JDK) {
      LOG.info("RSA signatures: the JDK's provider (identity/rsaProvider = jdk)");
      return jdk();
    }
    return Providers.accp(problem -> LOG.warning("RSA signatures: the JDK's provider; " + problem))
        .map(
            accp -> {
              LOG.info(
                  "RSA signatures: " + accp.getName() + " " + accp.getVersionStr() + " (AWS-LC)");
              return new RsaProvider(accp);
            })
        .orElseGet(RsaProvider::jdk);
  }

  /** The provider itself; the JDK's is {@code SunRsaSign}, which verifies RS256. */
  public Provider provider() {
    return provider == null ? Security.getProvider("SunRsaSign") : provider;
  }

  /** The provider's name, for logs and the benchmark. */
  public String name() {
    return provider == null ? "JDK" : provider.getName();
  }

  /**
   * A new RS256 signature engine (RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256) of this provider.
   */
  Signature rs256() throws GeneralSecurityException {
    return provider == null
        ? Signature.getInstance("SHA256withRSA")
        : Signature.getInstance("SHA256withRSA", provider);
  }

  /** An RSA key factory of this provider, so a private key lives in the provider that uses it. */
  KeyFactory keyFactory() throws GeneralSecurityException {
    return provider == null
        ? KeyFactory.getInstance("RSA")
        : KeyFactory.getInstance("RSA", provider);
  }
}
