package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.config.TestSettings;
import dev.platform.identity.db.Database;
import dev.platform.identity.db.TestDatabases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyFactorySpi;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, attacker's review (branch hsm-review), without a token: each test states what the
 * service should hold and fails on the reviewed code.
 */
class Pkcs11AttackTest {
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");

  /**
   * Finding 6 (low). /health/ready is unauthenticated and "signs a fixed message with the current
   * key at most once a second". The limit is a volatile read and a later write, so every request
   * that arrives while a probe signature is under way (or at the same instant the last one expires)
   * signs again: N concurrent callers get N HSM signatures each second. The signer here takes 100
   * ms, as a network HSM under load may.
   */
  @Test
  void whenManyReadinessChecksArriveTogetherThenTheTokenSignsOnce() throws Exception {
    CountingProvider counting = new CountingProvider();
    Settings settings =
        TestNodes.settings(Map.of(JndiSettings.KEY_ENCRYPTION_KEY, TestNodes.randomKey()));
    MutableClock clock = new MutableClock(START);
    Database db = TestNodes.open(TestDatabases.h2DataSource(TestNodes.newDatabase()), settings);
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    ExecutorService callers = Executors.newFixedThreadPool(16);
    try {
      KeyEncryption encryption =
          new KeyEncryption(
              settings.secrets().keyEncryptionKey(), TestNodes.RANDOM, RsaProvider.of(counting));
      KeyNode node =
          KeyNode.of(
              db,
              PrivateKeys.inDatabase(encryption),
              settings.keys(),
              clock,
              TestNodes.RANDOM,
              scheduler);
      KeyRing ring = node.ring();
      node.rotation().rotateIfDue();
      int before = counting.signatures.get();

      CyclicBarrier together = new CyclicBarrier(16);
      List<Future<Boolean>> answers = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        answers.add(
            callers.submit(
                () -> {
                  together.await();
                  return ring.signingProblem().isEmpty();
                }));
      }
      for (Future<Boolean> answer : answers) {
        assertTrue(answer.get(30, TimeUnit.SECONDS));
      }
      assertEquals(
          1,
          counting.signatures.get() - before,
          "16 simultaneous GET /health/ready made this many signatures within one second");
    } finally {
      callers.shutdownNow();
      scheduler.shutdownNow();
      db.close();
    }
  }

  /**
   * Finding 8 (informational). {@code identity/pkcs11Library} is checked as a literal path ({@code
   * Files.isRegularFile}) and refused only for control characters, quotes and backslashes;
   * SunPKCS11 then expands {@code ${property}} in the quoted value, so the module it loads is not
   * the file that was checked (seen: a checked {@code /tmp/rv/lit/${x}/libsofthsm2.so} loaded as
   * {@code /tmp/rv/lit//nonexistent/libsofthsm2.so} with {@code -Dx=/nonexistent}).
   */
  @Test
  void whenTheLibraryPathHoldsAPropertyReferenceThenItIsRefused(@TempDir Path folder)
      throws IOException {
    Path literal = Files.createDirectories(folder.resolve("${java.io.tmpdir}"));
    Path module = Files.writeString(literal.resolve("libmodule.so"), "not really a module");
    Map<String, Object> entries = TestSettings.entries();
    entries.put(JndiSettings.KEY_STORE, "pkcs11");
    entries.put(JndiSettings.PKCS11_LIBRARY, module.toString());
    entries.put(JndiSettings.PKCS11_SLOT, "1");
    entries.put(JndiSettings.PKCS11_PIN, "1234");

    assertThrows(
        InvalidSettingException.class,
        () -> JndiSettings.read(entries::get),
        "SunPKCS11 would load another module than " + module);
  }

  /** A provider whose RS256 signatures are the JDK's, counted and slow. */
  static final class CountingProvider extends Provider {
    final AtomicInteger signatures = new AtomicInteger();

    CountingProvider() {
      super("Counting", "1", "RS256 signatures counted, 100 ms each");
      putService(
          new Service(
              this, "Signature", "SHA256withRSA", CountingSignature.class.getName(), null, null) {
            @Override
            public Object newInstance(Object parameter) throws NoSuchAlgorithmException {
              return new CountingSignature(signatures);
            }
          });
      putService(
          new Service(this, "KeyFactory", "RSA", JdkKeyFactory.class.getName(), null, null) {
            @Override
            public Object newInstance(Object parameter) throws NoSuchAlgorithmException {
              return new JdkKeyFactory();
            }
          });
    }
  }

  static final class CountingSignature extends SignatureSpi {
    private final AtomicInteger count;
    private final Signature jdk;

    CountingSignature(AtomicInteger count) throws NoSuchAlgorithmException {
      this.count = count;
      this.jdk = Signature.getInstance("SHA256withRSA", jdkRsa());
    }

    private static Provider jdkRsa() {
      return java.security.Security.getProvider("SunRsaSign");
    }

    @Override
    protected void engineInitVerify(PublicKey key) throws InvalidKeyException {
      jdk.initVerify(key);
    }

    @Override
    protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
      jdk.initSign(key);
    }

    @Override
    protected void engineUpdate(byte b) throws SignatureException {
      jdk.update(b);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) throws SignatureException {
      jdk.update(b, off, len);
    }

    @Override
    protected byte[] engineSign() throws SignatureException {
      count.incrementAndGet();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return jdk.sign();
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
      return jdk.verify(sigBytes);
    }

    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
      throw new UnsupportedOperationException();
    }

    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
      throw new UnsupportedOperationException();
    }
  }

  static final class JdkKeyFactory extends KeyFactorySpi {
    private final KeyFactory jdk;

    JdkKeyFactory() throws NoSuchAlgorithmException {
      this.jdk = KeyFactory.getInstance("RSA");
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
      return jdk.generatePublic(spec);
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
      return jdk.generatePrivate(spec);
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> spec)
        throws InvalidKeySpecException {
      return jdk.getKeySpec(key, spec);
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
      return jdk.translateKey(key);
    }
  }
}
