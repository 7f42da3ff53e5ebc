package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import com.amazon.corretto.crypto.provider.SelfTestStatus;
import dev.platform.identity.config.Settings.RsaEngine;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import org.junit.jupiter.api.Test;

class RsaProviderTest {
  @Test
  void whenJdkIsAskedForThenTheJdkSigns() throws Exception {
    RsaProvider rsa = RsaProvider.choose(RsaEngine.JDK);

    assertEquals("JDK", rsa.name());
    assertEquals("SunRsaSign", rsa.rs256().getProvider().getName());
  }

  /** Whichever provider stands behind the choice: ACCP where it loads, else the JDK's. */
  @Test
  void whenAccpIsAskedForThenAnImportedKeySignsWhatTheJdkVerifies() throws Exception {
    RsaProvider rsa = RsaProvider.choose(RsaEngine.ACCP);
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair pair = generator.generateKeyPair();
    PrivateKey imported =
        rsa.keyFactory().generatePrivate(new PKCS8EncodedKeySpec(pair.getPrivate().getEncoded()));
    byte[] message = "header.payload".getBytes(StandardCharsets.UTF_8);

    Signature signer = rsa.rs256();
    signer.initSign(imported);
    signer.update(message);
    byte[] signature = signer.sign();

    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(pair.getPublic());
    verifier.update(message);
    assertTrue(verifier.verify(signature));
  }

  @Test
  void whenAccpLoadsThenItIsTheProviderThatSigns() throws Exception {
    Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
    assumeTrue(error == null, () -> "ACCP cannot load on " + platform() + ": " + error);

    RsaProvider rsa = RsaProvider.choose(RsaEngine.ACCP);

    assertEquals("AmazonCorrettoCryptoProvider", rsa.name());
    assertEquals("AmazonCorrettoCryptoProvider", rsa.rs256().getProvider().getName());
  }

  @Test
  void whenAccpCannotLoadThenTheJdkStandsIn() throws Exception {
    Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
    assumeTrue(error != null, () -> "ACCP loads on " + platform());

    RsaProvider rsa = RsaProvider.choose(RsaEngine.ACCP);

    assertEquals("JDK", rsa.name());
    assertEquals("SunRsaSign", rsa.rs256().getProvider().getName());
  }

  private static String platform() {
    return System.getProperty("os.name") + " " + System.getProperty("os.arch");
  }

  /** Nothing of ACCP's is left to run after a start that fails (docs/design-choices.md). */
  @Test
  void whenAccpIsChosenThenItsSelfTestsHaveAllRun() {
    AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
    assumeTrue(accp.getLoadingError() == null, "ACCP loads here");

    RsaProvider.choose(RsaEngine.ACCP);

    assertEquals(SelfTestStatus.PASSED, accp.getSelfTestStatus());
  }
}
