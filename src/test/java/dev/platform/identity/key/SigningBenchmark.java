package dev.platform.identity.key;

import dev.platform.identity.config.Settings.RsaEngine;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;

/**
 * The ceiling of the token endpoint (issue 10): RS256 signatures per second on one thread, through
 * the provider the service signs with (ACCP where it loads) and through the JDK's, each with its
 * key imported through the provider's own {@code KeyFactory} as {@link KeyRing} does. A plain timed
 * loop after a warm-up, not a test: {@code bench/run.sh} runs it and reads the lines starting with
 * {@code rs256}.
 */
public final class SigningBenchmark {
  private SigningBenchmark() {}

  /**
   * @param args optional: seconds to measure each provider (default 10)
   */
  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
    // About the size of a token's signing input (header and payload, base64url).
    byte[] signingInput = new byte[900];
    Arrays.fill(signingInput, (byte) 'e');
    for (RsaProvider rsa :
        new RsaProvider[] {RsaProvider.choose(RsaEngine.ACCP), RsaProvider.jdk()}) {
      PrivateKey key = rsa.keyFactory().generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      signaturesPerSecond(rsa, key, signingInput, Math.max(1, seconds / 2));
      double rate = signaturesPerSecond(rsa, key, signingInput, seconds);
      System.out.printf("rs256 %s %.0f signatures per second on one thread%n", rsa.name(), rate);
    }
  }

  private static double signaturesPerSecond(
      RsaProvider rsa, PrivateKey key, byte[] input, int seconds) throws GeneralSecurityException {
    long start = System.nanoTime();
    long end = start + seconds * 1_000_000_000L;
    long count = 0;
    while (System.nanoTime() < end) {
      Signature rs256 = rsa.rs256();
      rs256.initSign(key);
      rs256.update(input);
      rs256.sign();
      count++;
    }
    return count / ((System.nanoTime() - start) / 1e9);
  }
}
