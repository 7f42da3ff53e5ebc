package dev.platform.identity.key;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import dev.platform.identity.hsm.JvmToken;
import dev.platform.identity.hsm.SoftHsm;
import dev.platform.identity.key.TestNodes.Node;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 24, attacker's review (branch hsm-review): each test states what the service should hold
 * and fails on the reviewed code. Run with {@code -Didentity.softhsm.library=...} (-Phsm).
 */
@EnabledIfSystemProperty(named = SoftHsm.LIBRARY_PROPERTY, matches = ".+")
class Pkcs11AttackIT {
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");

  private static SoftHsm.Token token;

  private final String kek = TestNodes.randomKey();

  @BeforeAll
  static void makeToken() throws Exception {
    token = JvmToken.get();
  }

  /**
   * Finding 1 (high). A key is published at its creator's clock. A node whose clock is behind (any
   * NTP skew, here 5 s) refreshes, finds {@code published_at} in its future, takes the key for "out
   * of the list" and deletes it from the shared token. The key becomes current at its start, and
   * then no node can sign (500 on /oauth/token, readiness 503), none can start again, and no admin
   * token can be issued to rotate it away.
   */
  @Test
  void whenANodeWithASlowClockRefreshesThenItKeepsTheKeyAFastNodeJustPublished() throws Exception {
    String database = TestNodes.newDatabase();
    Settings settings = settings(Map.of());
    MutableClock ahead = new MutableClock(START.plusSeconds(5));
    MutableClock behind = new MutableClock(START);
    try (Node a = TestNodes.node(database, settings, ahead);
        Node b = TestNodes.node(database, settings, behind)) {
      a.rotation().rotateIfDue(); // the first key, published and signing from START + 5 s
      String kid = a.ring().current().kid();
      assertTrue(tokenAliases().contains(kid));

      b.rotation().rotateIfDue(); // b's scheduled refresh, 5 s behind

      assertTrue(
          tokenAliases().contains(kid),
          "node b deleted " + kid + ", published 5 s ahead of its clock, from the token");
      behind.set(START.plusSeconds(5));
      b.ring().refresh();
      assertDoesNotThrow(() -> b.ring().current().rs256().sign());
    }
  }

  /**
   * Finding 1, the scheduled form: the successor is pre-published a day before it signs, so the
   * deletion by a node a few milliseconds behind goes unnoticed until the successor starts.
   */
  @Test
  void whenTheScheduledSuccessorIsPublishedByANodeAheadThenItStillSignsWhenItsTurnComes()
      throws Exception {
    String database = TestNodes.newDatabase();
    Settings settings = settings(Map.of());
    MutableClock ahead = new MutableClock(START);
    MutableClock behind = new MutableClock(START);
    try (Node a = TestNodes.node(database, settings, ahead);
        Node b = TestNodes.node(database, settings, behind)) {
      a.rotation().rotateIfDue();
      b.rotation().rotateIfDue();
      Instant due = START.plus(Duration.ofDays(90)).minus(Duration.ofHours(24));
      ahead.set(due.plusMillis(20));
      behind.set(due.plusMillis(5)); // 15 ms behind
      assertTrue(a.rotation().rotateIfDue(), "a publishes the successor");
      b.rotation().rotateIfDue();

      SigningKey next =
          a.keys().all().stream()
              .max((x, y) -> x.createdAt().compareTo(y.createdAt()))
              .orElseThrow();
      ahead.set(next.activeFrom());
      behind.set(next.activeFrom());
      assertDoesNotThrow(() -> a.ring().refresh(), "node a opens " + next.kid() + " at its start");
      assertEquals(next.kid(), a.ring().current().kid());
      assertTrue(
          a.ring().signingProblem().isEmpty(),
          "the successor " + next.kid() + " does not sign: " + a.ring().signingProblem());
    }
  }

  /**
   * Finding 3 (medium). The published key set and the single lookup are public data; they should
   * not depend on opening the current private key. When the current key's object is missing from
   * the token, every request that reaches the ring after a change of the current key recomputes the
   * snapshot, reloads the PKCS#11 KeyStore (a full object search on the token, under a lock) and
   * fails: /api/public-keys turns 500 for unauthenticated callers, so relying parties cannot even
   * verify tokens signed before, and each such request costs the HSM a KeyStore load.
   */
  @Test
  void whenTheNextKeysPrivateHalfIsGoneThenThePublicKeysAreStillServed() throws Exception {
    String database = TestNodes.newDatabase();
    MutableClock clock = new MutableClock(START);
    try (Node node = TestNodes.node(database, settings(Map.of()), clock)) {
      node.rotation().rotateIfDue();
      SigningKey next = node.rotation().rotate(false); // signs after the pre-publication
      deleteFromToken(next.kid()); // lost however: finding 1, an operator, a token restore

      clock.set(next.activeFrom());
      assertDoesNotThrow(() -> node.ring().published(), "GET /api/public-keys");
      assertDoesNotThrow(() -> node.ring().lookup(next.kid()), "GET /api/public-keys/{kid}");
    }
  }

  /**
   * Finding 4 (low). The unauthenticated readiness answer carries the internal message of the key
   * ring when the current key cannot be opened: the slot id, the token's label and the kid.
   */
  @Test
  void whenTheCurrentKeyCannotBeOpenedThenReadinessSaysNoMoreThanTheFixedText() throws Exception {
    String database = TestNodes.newDatabase();
    MutableClock clock = new MutableClock(START);
    try (Node node = TestNodes.node(database, settings(Map.of()), clock)) {
      node.rotation().rotateIfDue();
      SigningKey next = node.rotation().rotate(false);
      deleteFromToken(next.kid());
      clock.set(next.activeFrom());

      Optional<String> problem = node.ring().signingProblem();
      assertTrue(problem.isPresent());
      assertFalse(
          problem.get().contains("slot") || problem.get().contains(next.kid()),
          "readiness tells anyone: " + problem.get());
    }
  }

  /**
   * Finding 5 (medium). The generation template sets CKA_SIGN but leaves CKA_DECRYPT and CKA_UNWRAP
   * to the token's default, true on SoftHSM (pkcs11-tool: "Usage: decrypt, sign, unwrap"). The
   * token's signing key is then also an RSA decryption (PKCS#1 v1.5) and unwrapping key for
   * anything holding the user PIN: one key, two uses, the classic cross-protocol oracle.
   */
  @Test
  void whenAKeyIsMadeInTheTokenThenItSignsAndNeitherDecryptsNorUnwraps() throws Exception {
    PrivateKeys keys =
        PrivateKeys.of(settings(Map.of()).keys(), encryption(), new MutableClock(START));
    KeyMaterial material = keys.generate(2048, TestNodes.RANDOM);

    Provider second = provider("attack-second");
    KeyStore store = KeyStore.getInstance("PKCS11", second);
    store.load(null, SoftHsm.PIN.toCharArray());
    PrivateKey found = (PrivateKey) store.getKey(material.kid(), null);

    Cipher encrypt = Cipher.getInstance("RSA/ECB/PKCS1Padding", "SunJCE");
    encrypt.init(
        Cipher.ENCRYPT_MODE,
        KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(material.publicKey())));
    byte[] secret = "a session key someone wrapped".getBytes(StandardCharsets.US_ASCII);
    byte[] ciphertext = encrypt.doFinal(secret);

    assertThrows(
        Exception.class,
        () -> {
          Cipher decrypt = Cipher.getInstance("RSA/ECB/PKCS1Padding", second);
          decrypt.init(Cipher.DECRYPT_MODE, found);
          byte[] plain = decrypt.doFinal(ciphertext);
          throw new AssertionError(
              "the signing key decrypted: " + new String(plain, StandardCharsets.US_ASCII));
        },
        "CKA_DECRYPT must be false on a signing key");
  }

  /**
   * Finding 2 (medium). With {@code identity/pkcs11TokenLabel}, the service initialises the module
   * itself, through {@code PKCS11.getInstance(library, ..., null, false)}: no C_INITIALIZE_ARGS.
   * The JDK then wraps the module in {@code SynchronizedPKCS11}, one lock around every PKCS#11 call
   * of the JVM (SoftHSM, told nothing about threads, also turns off its own mutexes), and SunPKCS11
   * shares that instance: every signature of every thread runs one at a time, against the issue's
   * "must not serialize the token path". A fresh JVM, since the module is initialised once per
   * process.
   */
  @Test
  void whenTheTokenIsNamedByItsLabelThenTheModuleIsNotSerializedOnOneLock() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder =
        new ProcessBuilder(
                java.toString(),
                "--add-exports=jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                LabelProbe.class.getName(),
                SoftHsm.requiredLibrary().toString(),
                token.label(),
                SoftHsm.PIN)
            .redirectErrorStream(true);
    builder.environment().put("SOFTHSM2_CONF", JvmToken.conf().toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
    assertEquals(0, process.exitValue(), output);
    String wrapper =
        output.lines().filter(line -> line.startsWith("wrapper=")).findFirst().orElse("");
    assertEquals(
        "wrapper=sun.security.pkcs11.wrapper.PKCS11",
        wrapper,
        "the module's calls all go through one lock: " + output);
  }

  /** The child JVM of the test above: opens the token by label as the service does. */
  static final class LabelProbe {
    public static void main(String[] args) throws Exception {
      Pkcs11Keys keys =
          Pkcs11Keys.open(
              new Settings.Pkcs11(
                  Path.of(args[0]), OptionalLong.empty(), Optional.of(args[1]), args[2]),
              Clock.systemUTC());
      Class<?> pkcs11 = Class.forName("sun.security.pkcs11.wrapper.PKCS11");
      Class<?> initArgs = Class.forName("sun.security.pkcs11.wrapper.CK_C_INITIALIZE_ARGS");
      Object module =
          pkcs11
              .getMethod("getInstance", String.class, String.class, initArgs, boolean.class)
              .invoke(null, args[0], "C_GetFunctionList", null, false);
      System.out.println("token=" + keys.token());
      System.out.println("wrapper=" + module.getClass().getName());
    }
  }

  /**
   * Finding 7 (low). PKCS#11 login state belongs to the process, not to a provider: once any
   * provider of this JVM has logged in to the token, SunPKCS11's login sees "already logged in" and
   * never presents the PIN. A redeployment of the WAR in the same JVM (or a second application on
   * the same Payara or Tomcat) with a wrong or no-longer-valid PIN then starts and signs, where the
   * issue asks that a wrong PIN stop the deployment; and any co-hosted application that configures
   * SunPKCS11 on the same module and slot uses the signing keys without knowing the PIN.
   */
  @Test
  void whenThePinIsWrongThenTheStartFailsEvenIfThisJvmLoggedInBefore() throws Exception {
    KeyStore earlier = KeyStore.getInstance("PKCS11", provider("attack-earlier-deployment"));
    earlier.load(null, SoftHsm.PIN.toCharArray()); // the previous deployment of the WAR

    String wrong = "wrong-pin-4711";
    InvalidSettingException e =
        assertThrows(
            InvalidSettingException.class,
            () ->
                PrivateKeys.of(
                    settings(Map.of(JndiSettings.PKCS11_PIN, wrong)).keys(),
                    encryption(),
                    new MutableClock(START)),
            "a wrong PIN was accepted because the module was logged in already");
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      assertFalse(String.valueOf(cause.getMessage()).contains(wrong), cause.toString());
    }
  }

  private Settings settings(Map<String, String> overrides) {
    return TestNodes.tokenSettings(kek, token, "pkcs11", overrides);
  }

  private KeyEncryption encryption() {
    return TestNodes.encryption(kek);
  }

  private static Provider provider(String name) {
    return Security.getProvider("SunPKCS11")
        .configure(
            "--name="
                + name
                + "\nlibrary = "
                + SoftHsm.requiredLibrary()
                + "\nslot = "
                + token.slot()
                + "\n");
  }

  private static List<String> tokenAliases() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS11", provider("attack-aliases"));
    store.load(null, SoftHsm.PIN.toCharArray());
    return Collections.list(store.aliases());
  }

  private static void deleteFromToken(String kid) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS11", provider("attack-delete"));
    store.load(null, SoftHsm.PIN.toCharArray());
    store.deleteEntry(kid);
  }
}
