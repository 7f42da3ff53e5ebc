package dev.platform.identity.it;

import dev.platform.identity.hsm.SoftHsm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.security.spec.RSAPrivateKeySpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 24: a second process that opens the service's token, as any node would: SunPKCS11 on the
 * module and slot of its arguments, the user PIN read from standard input (never an argument, which
 * {@code ps} shows). It prints one line per alias of the PKCS11 KeyStore: whether the entry is a
 * private key, whether the key refuses its encoding and its RSA key spec (so it cannot leave the
 * token), and whether it signs with SHA256withRSA inside the token, a signature its certificate's
 * public key verifies. The ITs run it with {@link #entries(SoftHsm, long)}.
 */
public final class HsmProbe {
  private HsmProbe() {}

  /** {@code java HsmProbe <library> <slot>}, SOFTHSM2_CONF in the environment, the PIN on stdin. */
  public static void main(String[] args) throws Exception {
    char[] pin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
            .readLine()
            .toCharArray();
    Provider p11 =
        Security.getProvider("SunPKCS11")
            .configure("--name=probe\nlibrary=" + args[0] + "\nslot=" + args[1] + "\n");
    KeyStore store = KeyStore.getInstance("PKCS11", p11);
    store.load(null, pin);
    for (String alias : Collections.list(store.aliases())) {
      System.out.println(entry(store, alias, p11).line());
    }
  }

  private static Entry entry(KeyStore store, String alias, Provider p11)
      throws GeneralSecurityException {
    boolean privateKey = store.entryInstanceOf(alias, KeyStore.PrivateKeyEntry.class);
    Key key = store.getKey(alias, null);
    if (!(key instanceof PrivateKey signing)) {
      return new Entry(alias, privateKey, key == null || key.getEncoded() == null, true, false);
    }
    return new Entry(
        alias,
        privateKey,
        key.getEncoded() == null,
        specRefused(signing, p11),
        signs(signing, store, alias, p11));
  }

  /**
   * The private exponent asked for through the token's own key factory: a sensitive key refuses.
   */
  private static boolean specRefused(PrivateKey key, Provider p11) {
    try {
      KeyFactory.getInstance("RSA", p11).getKeySpec(key, RSAPrivateKeySpec.class);
      return false;
    } catch (GeneralSecurityException | RuntimeException e) {
      return true;
    }
  }

  private static boolean signs(PrivateKey key, KeyStore store, String alias, Provider p11) {
    byte[] data = ("probe " + alias).getBytes(StandardCharsets.UTF_8);
    try {
      Signature signer = Signature.getInstance("SHA256withRSA", p11);
      signer.initSign(key);
      signer.update(data);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(store.getCertificate(alias).getPublicKey());
      verifier.update(data);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Runs the probe in a new JVM on {@code slot} of {@code hsm}'s token store and returns its
   * entries by alias; fails when the probe fails.
   */
  static Map<String, Entry> entries(SoftHsm hsm, long slot)
      throws IOException, InterruptedException {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            "target/test-classes",
            HsmProbe.class.getName(),
            SoftHsm.requiredLibrary().toString(),
            Long.toString(slot));
    Path errors = Files.createTempFile("hsm-probe", ".err");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
    builder.environment().putAll(hsm.environment());
    Process process = builder.start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write((SoftHsm.PIN + "\n").getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean ended = process.waitFor(60, TimeUnit.SECONDS);
    String err = Files.readString(errors);
    Files.delete(errors);
    if (!ended || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("the probe failed: " + out + err);
    }
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (String line : out.lines().filter(line -> !line.isBlank()).toList()) {
      Entry entry = Entry.parse(line);
      entries.put(entry.alias(), entry);
    }
    return entries;
  }

  /**
   * One alias as the probe saw it. {@code inToken}: a private key entry whose key has no encoding
   * and refuses its key spec, and signs; what a key generated in the token shows.
   */
  record Entry(
      String alias,
      boolean privateKey,
      boolean encodingRefused,
      boolean specRefused,
      boolean signs) {

    boolean inToken() {
      return privateKey && encodingRefused && specRefused && signs;
    }

    String line() {
      return String.join(
          " ",
          alias,
          "privateKey=" + privateKey,
          "encodedNull=" + encodingRefused,
          "specRefused=" + specRefused,
          "signs=" + signs);
    }

    static Entry parse(String line) {
      String[] words = line.split(" ");
      List<Boolean> flags = new ArrayList<>();
      for (int i = 1; i < words.length; i++) {
        flags.add(Boolean.parseBoolean(words[i].substring(words[i].indexOf('=') + 1)));
      }
      if (flags.size() != 4) {
        throw new IllegalStateException("not a probe line: " + line);
      }
      return new Entry(words[0], flags.get(0), flags.get(1), flags.get(2), flags.get(3));
    }
  }
}
