package dev.platform.identity.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A secret setting's file form: the file an entry names, checked as ops would want before its
 * content is believed. Messages name the entry and the file, never the content.
 */
final class SecretFile {
  /** A secret is a few dozen bytes; a larger file is the wrong file. */
  static final int MAX_BYTES = 64 * 1024;

  private static final Set<PosixFilePermission> OWNER_ONLY =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);

  private final String entry;
  private final Path file;

  SecretFile(String entry, Path file) {
    this.entry = entry;
    this.file = file;
  }

  /**
   * The file's content without trailing whitespace, once the file passed every check. The path is
   * resolved once ({@code toRealPath}) and the real file opened once, without following links; its
   * identity ({@code fileKey}) before opening and after reading must agree, so a file swapped in
   * between the checks and the read is refused rather than believed. Residual: a FIFO swapped in at
   * the last moment would block the open (NIO has no non-blocking open); that needs write access to
   * the folder, which the folder check leaves to its owner.
   */
  String read() {
    Path real = realPath();
    BasicFileAttributes before = attributes(real);
    if (!before.isRegularFile()) {
      throw refused("which is not a regular file (a directory or a device?); name the file itself");
    }
    checkOwnerOnly(before);
    checkOwnerAndFolder(real);
    if (before.size() > MAX_BYTES) {
      throw refused("which is larger than " + MAX_BYTES / 1024 + " KiB; is it the right file?");
    }
    String content = content(real);
    BasicFileAttributes after = attributes(real);
    if (!after.isRegularFile() || !Objects.equals(before.fileKey(), after.fileKey())) {
      throw refused("which was replaced while it was read; check who may write its folder");
    }
    content = content.stripTrailing();
    if (content.isEmpty()) {
      throw refused("which is empty; put the value in it (one line)");
    }
    return content;
  }

  /** Follows symbolic links once: the target is what is read, so the target is judged. */
  private Path realPath() {
    try {
      return file.toRealPath();
    } catch (NoSuchFileException e) {
      throw refused("which does not exist; create it or correct the path");
    } catch (IOException e) {
      throw refused("which cannot be examined (" + e + "); check the folders' permissions");
    }
  }

  private BasicFileAttributes attributes(Path real) {
    try {
      try {
        return Files.readAttributes(real, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (UnsupportedOperationException e) {
        return Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      }
    } catch (NoSuchFileException e) {
      throw refused("which does not exist; create it or correct the path");
    } catch (IOException e) {
      throw refused("which cannot be examined (" + e + "); check the folders' permissions");
    }
  }

  private void checkOwnerOnly(BasicFileAttributes attributes) {
    if (!(attributes instanceof PosixFileAttributes posix)) {
      return; // no POSIX modes on this file system: its ACLs are the operator's to set
    }
    Set<PosixFilePermission> permissions = posix.permissions();
    if (!OWNER_ONLY.containsAll(permissions)) {
      boolean readable =
          permissions.contains(PosixFilePermission.GROUP_READ)
              || permissions.contains(PosixFilePermission.OTHERS_READ);
      throw refused(
          "which group or others may "
              + (readable ? "read" : "write or run")
              + " ("
              + PosixFilePermissions.toString(permissions)
              + "); make it owner-only: chmod 600 "
              + file);
    }
  }

  /** The server's user owns the file, and nobody else may write its folder (ssh's StrictModes). */
  private void checkOwnerAndFolder(Path real) {
    Optional<String> problem;
    try {
      problem = ServerUser.notOwned(real, "which", LinkOption.NOFOLLOW_LINKS);
      if (problem.isEmpty() && real.getParent() != null) {
        problem = ServerUser.writableByOthers(real.getParent());
      }
    } catch (IOException e) {
      throw refused("which cannot be examined (" + e + "); check the folders' permissions");
    }
    problem.ifPresent(
        why -> {
          throw refused(why);
        });
  }

  private String content(Path real) {
    try (SeekableByteChannel channel =
            Files.newByteChannel(real, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        InputStream in = Channels.newInputStream(channel)) {
      return new String(in.readNBytes(MAX_BYTES), StandardCharsets.UTF_8);
    } catch (AccessDeniedException e) {
      throw refused(
          "which this server's user ("
              + System.getProperty("user.name")
              + ") may not read; make that user its owner (chown) and chmod 600 it");
    } catch (IOException e) {
      throw refused("which cannot be read (" + e + ")");
    }
  }

  private InvalidSettingException refused(String problem) {
    return new InvalidSettingException(entry, "names " + file + ", " + problem);
  }

  /** How an error about the content starts: which entry, which file. */
  String about() {
    return "names " + file + ", whose content ";
  }
}
