package dev.platform.identity.key;

import dev.platform.identity.config.InvalidSettingException;
import dev.platform.identity.config.JndiSettings;
import dev.platform.identity.config.Settings;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the private halves of the signing keys live: sealed in their rows under the key-encryption
 * key, or inside a PKCS#11 token. New keys are made where {@code identity/keyStore} says; a stored
 * key is opened where its row says it is, so keys made before a change of that setting keep signing
 * until they retire, and the change needs no outage.
 */
public final class PrivateKeys {
  private static final Logger LOG = Logger.getLogger(PrivateKeys.class.getName());

  private final KeyEncryption encryption;
  private final Settings.KeyStore newKeys;
  private final Pkcs11Keys token;

  private PrivateKeys(KeyEncryption encryption, Settings.KeyStore newKeys, Pkcs11Keys token) {
    this.encryption = encryption;
    this.newKeys = newKeys;
    this.token = token;
  }

  /** Every key in the database, sealed by {@code encryption}: no token. */
  static PrivateKeys inDatabase(KeyEncryption encryption) {
    return new PrivateKeys(encryption, Settings.KeyStore.DATABASE, null);
  }

  /**
   * As {@code settings} say: the token opened (and logged in to) when one is configured.
   *
   * @throws dev.platform.identity.config.InvalidSettingException naming the token's setting that is
   *     wrong
   */
  public static PrivateKeys of(Settings.Keys settings, KeyEncryption encryption, Clock clock) {
    Pkcs11Keys token = settings.pkcs11().map(pkcs11 -> Pkcs11Keys.open(pkcs11, clock)).orElse(null);
    LOG.info(
        "New signing keys are made "
            + (settings.store() == Settings.KeyStore.PKCS11
                ? "inside the PKCS#11 token in " + token.token()
                : "in this JVM and sealed in the database under the key-encryption key")
            + " (identity/keyStore = "
            + settings.store().name().toLowerCase(Locale.ROOT)
            + ")");
    return new PrivateKeys(encryption, settings.store(), token);
  }

  KeyEncryption encryption() {
    return encryption;
  }

  /** A new key of {@code bits}, made where {@code identity/keyStore} says. */
  KeyMaterial generate(int bits, SecureRandom random) {
    return newKeys == Settings.KeyStore.PKCS11
        ? token.generate(bits, random, encryption.current().id())
        : KeyMaterial.generate(bits, encryption, random);
  }

  /**
   * The stored key {@code key}, ready to sign.
   *
   * @throws IllegalStateException naming the setting when this node cannot open it
   */
  CurrentKey open(SigningKey key) {
    if (key.home() == PrivateKeyHome.DATABASE) {
      return new CurrentKey(
          key.kid(), encryption.open(key.kid(), key.sealedPrivateKey()), encryption.rsa(), false);
    }
    return new CurrentKey(key.kid(), hsm(key.kid()).key(key.kid()), token.signer(), true);
  }

  /**
   * Deletes the private half of {@code material} if a token holds it: a key made for a schedule
   * slot that another node took first, or for a change that failed, and never stored.
   */
  void discard(KeyMaterial material) {
    if (material.home() == PrivateKeyHome.PKCS11) {
      try {
        token.delete(material.kid());
      } catch (RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Signing key " + material.kid() + " was never stored, but stays in the token",
            e);
      }
    }
  }

  /**
   * Deletes from the token every key of {@code rows} in it that left the published list (revoked,
   * expired, or withdrawn before it signed) before {@code now} less {@code grace}, each at most
   * once per node. The grace covers the nodes that still sign with a key revoked elsewhere until
   * their next refresh. A key not yet published here has not left the list: on a node whose clock
   * is behind, it is one another node has just made. A failure is logged and tried on the next
   * refresh.
   *
   * @return how many keys were deleted from the token
   */
  int discardUnlisted(List<SigningKey> rows, Instant now, Duration grace) {
    if (token == null) {
      return 0;
    }
    int deleted = 0;
    for (SigningKey key : rows) {
      if (key.home() == PrivateKeyHome.PKCS11 && key.leftListBefore(now.minus(grace))) {
        try {
          if (token.delete(key.kid())) {
            deleted++;
            LOG.info("Signing key " + key.kid() + " left the list; deleted from the token");
          }
        } catch (RuntimeException e) {
          LOG.log(Level.WARNING, "Signing key " + key.kid() + " stays in the token for now", e);
        }
      }
    }
    return deleted;
  }

  /**
   * The token, for key {@code kid} that is in one.
   *
   * @throws InvalidSettingException when no token is configured: a setting is wrong, not the token,
   *     so the start stops (and the key is never replaced as if the token had lost it)
   */
  private Pkcs11Keys hsm(String kid) {
    if (token == null) {
      throw new InvalidSettingException(
          JndiSettings.PKCS11_LIBRARY,
          "is not set, but signing key "
              + kid
              + " is in a PKCS#11 token: configure the token that holds it (identity/pkcs11*),"
              + " keeping identity/keyStore as it is if new keys are to be made in the database");
    }
    return token;
  }
}
