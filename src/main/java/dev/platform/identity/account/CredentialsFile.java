package dev.platform.identity.account;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Credentials written for an operator to collect: staged in a temporary file beside the target,
 * created owner-only (never readable by others, not even for a moment), then moved into place in
 * one step, so the target is either absent or complete.
 */
final class CredentialsFile {
  private final Path target;
  private final Path staged;

  private CredentialsFile(Path target, Path staged) {
    this.target = target;
    this.staged = staged;
  }

  /** Writes {@code content} to a new owner-only file in {@code target}'s folder. */
  static CredentialsFile stage(Path target, String content) {
    Path staged = null;
    try {
      staged = Files.createTempFile(target.getParent(), ".identity-", ".tmp", ownerOnly());
      Files.writeString(staged, content, StandardCharsets.UTF_8);
      return new CredentialsFile(target, staged);
    } catch (IOException e) {
      deleteQuietly(staged);
      throw new UncheckedIOException("cannot write a file in " + target.getParent(), e);
    }
  }

  /** Moves the staged file to the target, replacing an older one. */
  void publish() {
    try {
      Files.move(
          staged, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + staged + " to " + target, e);
    }
  }

  /** Deletes the staged file: it will not be published. */
  void discard() {
    deleteQuietly(staged);
  }

  private static FileAttribute<?>[] ownerOnly() {
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[0];
    }
    return new FileAttribute<?>[] {
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
    };
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // the caller's error is the one worth reporting
    }
  }
}
