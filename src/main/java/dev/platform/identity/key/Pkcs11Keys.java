package dev.platform.identity.key;

import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.AuthProvider;
import java.security.GeneralSecurityException;
import java.security.InvalidParameterException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.spec.RSAKeyGenParameterSpec;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Signing keys inside a PKCS#11 token, through the JDK's SunPKCS11 provider, configured from the
 * settings at start (no file) and never installed globally. A key is generated in the token (token
 * object, sensitive, not extractable; its public half a session object, copied to the row) and
 * stored in the provider's KeyStore under its kid: {@code CKA_ID} is the kid, and a {@link
 * SelfSignedCertificate} labelled with the kid stands beside it, without which that KeyStore
 * neither stores nor lists a private key. Any node that opens the token finds it by kid.
 *
 * <p>Signing takes no lock of ours: SunPKCS11 takes a session from its own pool for each operation.
 * The KeyStore object is not thread-safe, so its few uses (a new key, a key-ring change, a
 * deletion) hold this object's lock.
 */
final class Pkcs11Keys {
  private static final Logger LOG = Logger.getLogger(Pkcs11Keys.class.getName());

  /**
   * What a key generated here is, as PKCS#11 attributes (the provider's configuration syntax): the
   * private half a token object that the token keeps secret and never exports; the public half a
   * session object, gone when the session ends (its value is in the row), so that deleting the
   * entry leaves nothing behind. A signing key only signs: never an RSA decryption or unwrapping
   * key (one key, one use).
   */
  private static final String GENERATION_ATTRIBUTES =
      """
      attributes(generate, CKO_PRIVATE_KEY, CKK_RSA) = {
        CKA_TOKEN = true
        CKA_PRIVATE = true
        CKA_SENSITIVE = true
        CKA_EXTRACTABLE = false
        CKA_SIGN = true
        CKA_DECRYPT = false
        CKA_UNWRAP = false
      }
      attributes(generate, CKO_PUBLIC_KEY, CKK_RSA) = {
        CKA_TOKEN = false
      }
      """;

  /** PKCS#11 {@code CKF_OS_LOCKING_OK}: the module may use the operating system's locks. */
  private static final long OS_LOCKING_OK = 0x2;

  private final Provider provider;
  private final RsaProvider signer;
  private final KeyStore store;
  private final char[] pin;
  private final String token;
  private final Clock clock;

  /**
   * Kids whose objects this node has deleted or found absent after a reload: never looked up again.
   */
  private final Set<String> gone = ConcurrentHashMap.newKeySet();

  private Pkcs11Keys(Provider provider, KeyStore store, char[] pin, String token, Clock clock) {
    this.provider = provider;
    this.signer = RsaProvider.of(provider);
    this.store = store;
    this.pin = pin;
    this.token = token;
    this.clock = clock;
  }

  /**
   * Opens the token {@code settings} name and logs in with its PIN.
   *
   * @throws InvalidSettingException naming the setting that is wrong: the module, the slot or
   *     label, or the PIN
   */
  static Pkcs11Keys open(Settings.Pkcs11 settings, Clock clock) {
    long slot =
        settings.slot().isPresent()
            ? settings.slot().getAsLong()
            : slotLabelled(settings.library().toString(), settings.tokenLabel().orElseThrow());
    String token =
        "slot "
            + Long.toUnsignedString(slot)
            + settings.tokenLabel().map(label -> " (token '" + label + "')").orElse("");
    Provider provider;
    try {
      provider =
          Security.getProvider("SunPKCS11")
              .configure(
                  "--name=identity\nlibrary = \""
                      + settings.library()
                      + "\"\nslot = "
                      + Long.toUnsignedString(slot)
                      + "\n"
                      + GENERATION_ATTRIBUTES);
    } catch (ProviderException | InvalidParameterException e) {
      throw configurationFailed(settings, token, e);
    }
    char[] pin = settings.pin().toCharArray();
    KeyStore store;
    try {
      // A PKCS#11 login belongs to the process: after an earlier deployment in this JVM logged
      // in, the provider would skip the PIN. Logging out first makes this PIN be checked.
      ((AuthProvider) provider).logout();
      store = KeyStore.getInstance("PKCS11", provider);
      store.load(null, pin);
    } catch (IOException | GeneralSecurityException | ProviderException e) {
      if (causes(
          e, "CKR_PIN_INCORRECT", "CKR_PIN_LEN_RANGE", "CKR_PIN_LOCKED", "CKR_PIN_EXPIRED")) {
        throw new InvalidSettingException(
            JndiSettings.PKCS11_PIN,
            "(or the file java:comp/env/"
                + JndiSettings.PKCS11_PIN_FILE
                + " names) is not the user PIN of the PKCS#11 token in "
                + token
                + " ("
                + reason(e)
                + "); a locked PIN needs the token's security officer");
      }
      throw new InvalidSettingException(
          slotEntry(settings), "names " + token + ", which cannot be opened: " + reason(e));
    }
    LOG.info(
        "Signing keys: PKCS#11 token in "
            + token
            + " through "
            + settings.library()
            + " ("
            + provider.getName()
            + ")");
    return new Pkcs11Keys(provider, store, pin, token, clock);
  }

  private static InvalidSettingException configurationFailed(
      Settings.Pkcs11 settings, String token, RuntimeException e) {
    if (causes(e, "CKR_SLOT_ID_INVALID")) {
      return new InvalidSettingException(
          slotEntry(settings), "names " + token + ", which the module has no slot for");
    }
    if (causes(e, "CKR_TOKEN_NOT_RECOGNIZED", "CKR_TOKEN_NOT_PRESENT", "CKR_DEVICE")) {
      return new InvalidSettingException(
          slotEntry(settings),
          "names " + token + ", which holds no initialised token (" + reason(e) + ")");
    }
    return new InvalidSettingException(
        JndiSettings.PKCS11_LIBRARY,
        "names " + settings.library() + ", which is not a usable PKCS#11 module: " + reason(e));
  }

  private static String slotEntry(Settings.Pkcs11 settings) {
    return settings.slot().isPresent() ? JndiSettings.PKCS11_SLOT : JndiSettings.PKCS11_TOKEN_LABEL;
  }

  /** The provider that signs with this token's keys. */
  RsaProvider signer() {
    return signer;
  }

  /** The token, as messages name it. */
  String token() {
    return token;
  }

  /**
   * A new key pair of {@code bits} generated inside the token and stored there under a new random
   * kid; the row's MAC is to be under {@code kekId}.
   */
  synchronized KeyMaterial generate(int bits, SecureRandom random, String kekId) {
    KeyMaterial.checkSize(bits);
    String kid = KeyMaterial.kid(random);
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA", provider);
      generator.initialize(new RSAKeyGenParameterSpec(bits, RSAKeyGenParameterSpec.F4), random);
      KeyPair pair = generator.generateKeyPair();
      Certificate certificate = SelfSignedCertificate.of(kid, pair, provider, clock.instant());
      store.setKeyEntry(kid, pair.getPrivate(), null, new Certificate[] {certificate});
      return KeyMaterial.inToken(kid, pair.getPublic().getEncoded(), kekId);
    } catch (GeneralSecurityException | ProviderException e) {
      throw new IllegalStateException(
          "the PKCS#11 token in " + token + " did not make a signing key: " + reason(e), e);
    }
  }

  /**
   * The private key {@code kid}, a handle into the token. Another node may have made it since this
   * KeyStore was loaded: a kid not found is looked for again after one reload.
   *
   * @throws IllegalStateException when the token does not hold it
   */
  synchronized PrivateKey key(String kid) {
    try {
      Key key = store.getKey(kid, null);
      if (key == null) {
        store.load(null, pin);
        key = store.getKey(kid, null);
      }
      if (key instanceof PrivateKey privateKey) {
        return privateKey;
      }
      throw new IllegalStateException(
          "signing key "
              + kid
              + " is not in the PKCS#11 token in "
              + token
              + ": its private half was deleted, or this is another token than the one that made"
              + " it");
    } catch (IOException | GeneralSecurityException | ProviderException e) {
      throw new IllegalStateException(
          "the PKCS#11 token in " + token + " cannot be read: " + reason(e), e);
    }
  }

  /**
   * Deletes the private key {@code kid} and its certificate from the token, if there (after one
   * reload, since another node may have made it); returns whether it was there.
   */
  synchronized boolean delete(String kid) {
    if (gone.contains(kid)) {
      return false;
    }
    try {
      if (!store.containsAlias(kid)) {
        store.load(null, pin);
      }
      boolean there = store.containsAlias(kid);
      if (there) {
        store.deleteEntry(kid);
      }
      gone.add(kid);
      return there;
    } catch (IOException | GeneralSecurityException | ProviderException e) {
      throw new IllegalStateException(
          "the PKCS#11 token in " + token + " did not delete signing key " + kid + ": " + reason(e),
          e);
    }
  }

  /**
   * The slot of the token labelled {@code label}. The JDK has no public API for a token's label;
   * its own PKCS#11 wrapper, which SunPKCS11 uses, does, if the JVM exports it to us. The module is
   * initialised here once, and SunPKCS11 then shares that initialisation.
   */
  private static long slotLabelled(String library, String label) {
    try {
      Class<?> pkcs11 = Class.forName("sun.security.pkcs11.wrapper.PKCS11");
      Class<?> initArgs = Class.forName("sun.security.pkcs11.wrapper.CK_C_INITIALIZE_ARGS");
      Method getInstance =
          pkcs11.getMethod("getInstance", String.class, String.class, initArgs, boolean.class);
      // As SunPKCS11 initialises the module: with the OS's locking, so the JDK shares a module
      // that threads call at once, not one behind a lock of its own (no serialised path).
      Object args = initArgs.getConstructor().newInstance();
      initArgs.getField("flags").setLong(args, OS_LOCKING_OK);
      Object module = getInstance.invoke(null, library, "C_GetFunctionList", args, false);
      long[] slots = (long[]) pkcs11.getMethod("C_GetSlotList", boolean.class).invoke(module, true);
      Method tokenInfo = pkcs11.getMethod("C_GetTokenInfo", long.class);
      for (long slot : slots) {
        Object info = tokenInfo.invoke(module, slot);
        char[] padded = (char[]) info.getClass().getField("label").get(info);
        if (new String(padded).stripTrailing().equals(label)) {
          return slot;
        }
      }
    } catch (IllegalAccessException e) {
      throw new InvalidSettingException(
          JndiSettings.PKCS11_TOKEN_LABEL,
          "needs the JVM option --add-exports=jdk.crypto.cryptoki/sun.security.pkcs11.wrapper"
              + "=ALL-UNNAMED to read token labels; add it, or name the slot in java:comp/env/"
              + JndiSettings.PKCS11_SLOT
              + " instead");
    } catch (InvocationTargetException e) {
      throw new InvalidSettingException(
          JndiSettings.PKCS11_LIBRARY,
          "names " + library + ", whose slots cannot be listed: " + reason(e.getCause()));
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new InvalidSettingException(
          JndiSettings.PKCS11_TOKEN_LABEL,
          "cannot be resolved on this JDK ("
              + e
              + "); name the slot in java:comp/env/"
              + JndiSettings.PKCS11_SLOT
              + " instead");
    }
    throw new InvalidSettingException(
        JndiSettings.PKCS11_TOKEN_LABEL,
        "is '" + label + "', but no token of " + library + " has that label");
  }

  /** Whether any exception in {@code e}'s chain mentions one of {@code codes}. */
  static boolean causes(Throwable e, String... codes) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      String message = String.valueOf(cause.getMessage());
      for (String code : codes) {
        if (message.contains(code)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The innermost message of {@code e}'s chain, where PKCS#11's CKR_ code is. */
  static String reason(Throwable e) {
    Throwable innermost = e;
    while (innermost.getCause() != null) {
      innermost = innermost.getCause();
    }
    return innermost.getMessage() == null ? innermost.toString() : innermost.getMessage();
  }
}
