package dev.platform.identity.verify;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * RS256 signature checks (RFC 7518 §3.3: RSASSA-PKCS1-v1_5 with SHA-256) through one JCA provider,
 * with what the JCA leaves to its caller: engines reused rather than looked up per call, and each
 * key imported into the provider once rather than on every check (ACCP re-imports a foreign key
 * object each time it is given one). Thread-safe.
 */
final class Rs256 {
  private static final String ALGORITHM = "SHA256withRSA";

  /** RFC 7518 §3.3: a key of 2048 bits or larger MUST be used. */
  private static final int MIN_KEY_BITS = 2048;

  /**
   * Keys by kid, as imported; cleared when it grows past this, as only a key set's few are used.
   */
  private static final int MAX_KEYS = 64;

  private final Provider provider;
  private final KeyFactory keyFactory;

  /**
   * Idle engines, one slot per stripe of threads: a check takes its thread's slot's engine, or
   * makes one, and puts it back. No lock, no thread-local (which would pin the provider's classes
   * to an application server's pooled threads after an undeploy).
   */
  private final AtomicReferenceArray<Signature> idle;

  private final Map<String, Imported> imported = new ConcurrentHashMap<>();

  private record Imported(PublicKey located, PublicKey key) {}

  Rs256(Provider provider) {
    this.provider = provider;
    try {
      Signature.getInstance(ALGORITHM, provider); // fail at build time, not on a request
      this.keyFactory = KeyFactory.getInstance("RSA", provider);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the provider " + provider.getName() + " has no " + ALGORITHM + " or RSA keys", e);
    }
    int stripes = Integer.highestOneBit(Runtime.getRuntime().availableProcessors() * 4 - 1) << 1;
    this.idle = new AtomicReferenceArray<>(Math.min(stripes, 256));
  }

  /** The provider's name, for logs and the benchmark. */
  String providerName() {
    return provider.getName();
  }

  /**
   * Whether {@code signature} is {@code key}'s RS256 signature of the first {@code length} bytes of
   * {@code input}. A key that is not RSA, or is shorter than 2048 bits, verifies nothing.
   */
  boolean verify(String kid, PublicKey key, byte[] input, int length, byte[] signature) {
    PublicKey usable = usable(kid, key);
    if (usable == null) {
      return false;
    }
    int slot = (int) Thread.currentThread().getId() & (idle.length() - 1);
    Signature engine = idle.getAndSet(slot, null);
    try {
      if (engine == null) {
        engine = Signature.getInstance(ALGORITHM, provider);
      }
      engine.initVerify(usable);
      engine.update(input, 0, length);
      return engine.verify(signature);
    } catch (GeneralSecurityException e) { // a signature of the wrong length, say: not genuine
      return false;
    } finally {
      if (engine != null) {
        idle.lazySet(slot, engine);
      }
    }
  }

  /** The key as this provider's own object, imported once per kid and key; null if unusable. */
  private PublicKey usable(String kid, PublicKey located) {
    Imported known = imported.get(kid);
    if (known != null && (known.located() == located || known.located().equals(located))) {
      return known.key();
    }
    if (!(located instanceof RSAPublicKey rsa) || rsa.getModulus().bitLength() < MIN_KEY_BITS) {
      return null;
    }
    PublicKey key;
    try {
      // Not translateKey: ACCP marks a translated key ephemeral, and an engine destroys an
      // ephemeral key when it is given the next one ("Key has been destroyed" on its next use).
      key =
          keyFactory.generatePublic(
              new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
    } catch (GeneralSecurityException e) {
      key = located; // the provider takes it as it is, or refuses it in initVerify
    }
    if (imported.size() >= MAX_KEYS) {
      imported.clear();
    }
    imported.put(kid, new Imported(located, key));
    return key;
  }
}
