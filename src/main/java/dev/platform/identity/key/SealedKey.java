package dev.platform.identity.key;

/**
 * A private key as stored: AES-GCM ciphertext (with its tag) and the nonce it was sealed with.
 *
 * @param nonce 12 random bytes, never reused under one key-encryption key
 * @param ciphertext the encrypted PKCS#8 encoding followed by the 16-byte tag
 */
record SealedKey(byte[] nonce, byte[] ciphertext) {}
