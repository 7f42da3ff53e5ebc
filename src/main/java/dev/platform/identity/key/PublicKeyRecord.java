package dev.platform.identity.key;

import java.util.Base64;

/**
 * SPEC 2.4: one key by its id. Instants are ISO-8601 text; {@code expiresAt} is null until the
 * key's successor is scheduled.
 */
record PublicKeyRecord(
    String keyId,
    String publicKey,
    String algorithm,
    String activeFrom,
    String expiresAt,
    boolean isCurrent) {
  /** SPEC 2.3, 2.4: the only algorithm. */
  static final String ALGORITHM = "RS256";

  private static final Base64.Encoder PEM_LINES = Base64.getMimeEncoder(64, new byte[] {'\n'});

  static PublicKeyRecord from(SigningKey key, boolean isCurrent) {
    return new PublicKeyRecord(
        key.kid(),
        pem(key.rsaPublicKey().getEncoded()),
        ALGORITHM,
        key.activeFrom().toString(),
        key.expiresAt().map(Object::toString).orElse(null),
        isCurrent);
  }

  /** RFC 7468 §13: the SubjectPublicKeyInfo in base64 lines of 64 characters. */
  private static String pem(byte[] spki) {
    return "-----BEGIN PUBLIC KEY-----\n"
        + PEM_LINES.encodeToString(spki)
        + "\n-----END PUBLIC KEY-----\n";
  }
}
