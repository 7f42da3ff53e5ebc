package dev.platform.identity.key;

/**
 * A private key as stored: AES-GCM ciphertext (with its tag), the nonce it was sealed with and the
 * id of the key-encryption key that sealed it.
 *
 * @param nonce 12 random bytes, never reused under one key-encryption key
 * @param ciphertext the encrypted PKCS#8 encoding followed by the 16-byte tag
 * @param kekId the {@link KeyEncryptionKey#id()} of the key it was sealed under
 */
record SealedKey(byte[] nonce, byte[] ciphertext, String kekId) {}
