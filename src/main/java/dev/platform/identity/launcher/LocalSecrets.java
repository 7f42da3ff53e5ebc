package dev.platform.identity.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.logging.Logger;

/**
 * The embedded default's own key-encryption key and pepper: generated into the data folder on first
 * start (owner-only), read back on every later start.
 */
final class LocalSecrets {
  private static final Logger LOG = Logger.getLogger(LocalSecrets.class.getName());

  private LocalSecrets() {}

  /** The base64 content of {@code file}, generating 32 random bytes into it the first time. */
  static String readOrGenerate(Path file, String what) {
    try {
      if (!Files.exists(file)) {
        generate(file, what);
      }
      return Files.readString(file, StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create " + file, e);
    }
  }

  private static void generate(Path file, String what) throws IOException {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      return;
    }
    Files.writeString(file, Base64.getEncoder().encodeToString(bytes), StandardCharsets.US_ASCII);
    LOG.warning(
        "Generated a new "
            + what
            + " into "
            + file
            + ": back it up with the database; without it the data cannot be used.");
  }
}
