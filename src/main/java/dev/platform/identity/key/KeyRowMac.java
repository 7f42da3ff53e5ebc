package dev.platform.identity.key;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The integrity of the signing-key rows: HMAC-SHA-256 of a row's {@link KeyRow} columns under a key
 * derived from the key-encryption key, the one the row's {@code kek_id} names. The private key's
 * AES-GCM tag proves only that the private half was sealed for its kid; the public key and the
 * schedule are read from the row as they stand, so without this anyone able to write to the
 * database could list a public key of their own and have every verifier accept the tokens they
 * sign, or keep an old key listed. The MAC is deterministic, so every node with the same
 * key-encryption key computes the same one. (A MAC rather than more GCM associated data: the
 * schedule changes after creation, and checking it would then mean decrypting every private key on
 * every refresh.)
 *
 * <p>Revocation changes a row after its creation, so the MAC covers {@code revoked_at} and the
 * store recomputes it on every legitimate change: setting {@code revoked_at} back to null (or
 * moving {@code expires_at}) without the key-encryption key leaves a MAC that no longer matches,
 * and the row is refused. What no MAC can see is a whole row put back as it once was, its old MAC
 * included (from a backup, say): that gives back only a key this service made, but it can undo a
 * revocation, so a key whose private half leaked is also worth deleting once it has left the list.
 */
final class KeyRowMac {
  private static final String HMAC = "HmacSHA256";

  /** HKDF's info (RFC 5869 §2.3): this use of the key-encryption key, and no other. */
  private static final byte[] LABEL =
      "dev.platform.identity signing_key row MAC v1".getBytes(StandardCharsets.US_ASCII);

  private final SecretKey macKey;

  KeyRowMac(SecretKey keyEncryptionKey) {
    this.macKey = new SecretKeySpec(derive(keyEncryptionKey), HMAC);
  }

  /**
   * HKDF-Expand (RFC 5869 §2.3) of one block, the key-encryption key as the pseudorandom key (it is
   * 256 random bits, so the extract step adds nothing): a MAC key that is not the AES key itself.
   */
  private static byte[] derive(SecretKey keyEncryptionKey) {
    try {
      Mac hmac = Mac.getInstance(HMAC);
      hmac.init(new SecretKeySpec(keyEncryptionKey.getEncoded(), HMAC));
      hmac.update(LABEL);
      return hmac.doFinal(new byte[] {1});
    } catch (InvalidKeyException e) {
      throw new IllegalArgumentException("the key-encryption key cannot key an HMAC", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }

  /** The MAC of {@code row}, base64 (44 characters), as the {@code row_mac} column holds it. */
  String of(KeyRow row) {
    try {
      Mac hmac = Mac.getInstance(HMAC);
      hmac.init(macKey);
      return Base64.getEncoder().encodeToString(hmac.doFinal(row.encoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA-256 is unavailable", e);
    }
  }

  /** Whether {@code stored} is the MAC of {@code row}; compared in constant time. */
  boolean verifies(KeyRow row, String stored) {
    return stored != null
        && MessageDigest.isEqual(
            of(row).getBytes(StandardCharsets.US_ASCII),
            stored.getBytes(StandardCharsets.US_ASCII));
  }
}
