package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /** On this machine kind (Linux x86-64) ACCP loads; elsewhere the JDK's provider stands in. */
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
    if (System.getProperty("os.arch").equals("amd64")) {
      assertEquals("AmazonCorrettoCryptoProvider", rsa.name());
      assertEquals("AmazonCorrettoCryptoProvider", signer.getProvider().getName());
    }
  }
}
