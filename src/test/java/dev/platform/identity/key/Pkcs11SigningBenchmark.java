package dev.platform.identity.key;

import com.sun.management.OperatingSystemMXBean;
import dev.platform.identity.config.Settings.RsaEngine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Issue 24: RS256 signatures per second and per CPU-second of this process, on 1 and 2 threads,
 * through SunPKCS11 on a PKCS#11 token (SoftHSM2 in {@code bench/hsm.sh}) beside ACCP and the JDK's
 * SunRsaSign. The token's key is made as the service makes one in {@code pkcs11} mode: inside the
 * token, {@code CKA_TOKEN}, {@code CKA_SENSITIVE}, {@code CKA_PRIVATE}, not extractable. SoftHSM
 * runs inside this process, so its work is in the process's CPU time. A plain timed loop after a
 * warm-up, not a test; each thread keeps its own {@code Signature} and calls {@code initSign},
 * {@code update} and {@code sign} per signature, as a token request does.
 *
 * <p>Arguments: seconds per measurement, the module's path, the slot id; the user PIN is the first
 * line of standard input, never an argument. The token store comes from the environment ({@code
 * SOFTHSM2_CONF}). Prints one line per provider and thread count: {@code sign PROVIDER THREADS
 * SIGNATURES_PER_SECOND SIGNATURES_PER_CPU_SECOND}.
 */
public final class Pkcs11SigningBenchmark {
  private Pkcs11SigningBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: Pkcs11SigningBenchmark SECONDS LIBRARY SLOT < PIN-FILE");
      System.exit(2);
    }
    String pin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    int seconds = Integer.parseInt(args[0]);
    Provider pkcs11 =
        Security.getProvider("SunPKCS11")
            .configure(
                "--name=bench\nlibrary="
                    + args[1]
                    + "\nslot="
                    + Long.parseLong(args[2])
                    + "\nattributes(generate, CKO_PRIVATE_KEY, CKK_RSA) = {\n"
                    + "  CKA_TOKEN = true\n  CKA_SENSITIVE = true\n  CKA_EXTRACTABLE = false\n"
                    + "  CKA_PRIVATE = true\n}\n"
                    + "attributes(generate, CKO_PUBLIC_KEY, CKK_RSA) = {\n  CKA_TOKEN = false\n}\n");
    KeyStore.getInstance("PKCS11", pkcs11).load(null, pin.toCharArray()); // the login
    KeyPairGenerator inToken = KeyPairGenerator.getInstance("RSA", pkcs11);
    inToken.initialize(2048);
    KeyPair tokenKeys = inToken.generateKeyPair();

    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
    RsaProvider accp = RsaProvider.choose(RsaEngine.ACCP);
    RsaProvider jdk = RsaProvider.jdk();
    // About the size of a token's signing input (header and payload, base64url).
    byte[] input = new byte[900];
    Arrays.fill(input, (byte) 'e');
    check(pkcs11, tokenKeys, input);

    System.out.printf(
        "# %d cores; %d s per measurement after %d s of warm-up; RSA-2048, SHA256withRSA%n",
        Runtime.getRuntime().availableProcessors(), seconds, Math.max(1, seconds / 2));
    for (int threads : new int[] {1, 2}) {
      run("pkcs11", pkcs11, tokenKeys.getPrivate(), input, threads, seconds);
      run(
          accp.name(),
          accp.provider(),
          accp.keyFactory().generatePrivate(new PKCS8EncodedKeySpec(pkcs8)),
          input,
          threads,
          seconds);
      run(
          "jdk",
          jdk.provider(),
          jdk.keyFactory().generatePrivate(new PKCS8EncodedKeySpec(pkcs8)),
          input,
          threads,
          seconds);
    }
  }

  /** The token's signature verifies with its public half, and the private key is no plain key. */
  private static void check(Provider pkcs11, KeyPair keys, byte[] input) throws Exception {
    Signature sign = Signature.getInstance("SHA256withRSA", pkcs11);
    sign.initSign(keys.getPrivate());
    sign.update(input);
    byte[] signature = sign.sign();
    Signature verify = Signature.getInstance("SHA256withRSA");
    verify.initVerify(keys.getPublic());
    verify.update(input);
    if (!verify.verify(signature) || keys.getPrivate().getEncoded() != null) {
      throw new IllegalStateException("the token's key does not sign, or its bytes are readable");
    }
  }

  private static void run(
      String name, Provider provider, PrivateKey key, byte[] input, int threads, int seconds)
      throws Exception {
    measure(provider, key, input, threads, Math.max(1, seconds / 2)); // warm-up, discarded
    double[] rates = measure(provider, key, input, threads, seconds);
    System.out.printf("sign %s %d %.0f %.0f%n", name, threads, rates[0], rates[1]);
  }

  /** Signatures per wall second and per CPU-second of this process, on {@code threads} threads. */
  private static double[] measure(
      Provider provider, PrivateKey key, byte[] input, int threads, int seconds) throws Exception {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long cpu = os.getProcessCpuTime();
      long start = System.nanoTime();
      long end = start + seconds * 1_000_000_000L;
      List<Future<Long>> counts = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        counts.add(
            pool.submit(
                () -> {
                  Signature rs256 = Signature.getInstance("SHA256withRSA", provider);
                  long count = 0;
                  while (System.nanoTime() < end) {
                    rs256.initSign(key);
                    rs256.update(input);
                    rs256.sign();
                    count++;
                  }
                  return count;
                }));
      }
      long total = 0;
      for (Future<Long> count : counts) {
        total += count.get();
      }
      double wall = (System.nanoTime() - start) / 1e9;
      double cpuSeconds = (os.getProcessCpuTime() - cpu) / 1e9;
      return new double[] {total / wall, total / cpuSeconds};
    } finally {
      pool.shutdown();
    }
  }
}
