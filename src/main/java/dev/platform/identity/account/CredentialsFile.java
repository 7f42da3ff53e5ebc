package dev.platform.identity.account;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.UUID;

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

  /**
   * Writes {@code content} to a new owner-only file in {@code target}'s folder, through the one
   * handle that created it: {@code CREATE_NEW} fails on anything already there, a link included,
   * and the path is never opened again, so a file deleted or swapped in the folder meanwhile cannot
   * receive the secret.
   */
  static CredentialsFile stage(Path target, String content) {
    return stage(target, content, target.resolveSibling(".identity-" + UUID.randomUUID() + ".tmp"));
  }

  /** {@link #stage(Path, String)} with the staged file's name chosen by the caller (tests). */
  static CredentialsFile stage(Path target, String content, Path staged) {
    try (SeekableByteChannel channel =
        Files.newByteChannel(
            staged,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            ownerOnly())) {
      ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      if (channel instanceof FileChannel file) {
        file.force(true);
      }
    } catch (FileAlreadyExistsException e) {
      throw new UncheckedIOException("cannot write a file in " + target.getParent(), e);
    } catch (IOException e) {
      deleteQuietly(staged);
      throw new UncheckedIOException("cannot write a file in " + target.getParent(), e);
    }
    return new CredentialsFile(target, staged);
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
