package dev.platform.identity.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The owner-only temporary folder of one service the kit runs, a child process's or a deployed
 * WAR's: its H2 files, its context, and the secrets the context names.
 */
final class KitFolder {
  private KitFolder() {}

  /** A new folder only its owner can enter. */
  static Path create() throws IOException {
    Path folder = Files.createTempDirectory("identity-testkit-");
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    return folder;
  }

  /** {@code content} in a new file {@code name} of {@code folder}, only its owner may read. */
  static Path ownerOnlyFile(Path folder, String name, String content) throws IOException {
    Path file =
        Files.createFile(
            folder.resolve(name),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file.toAbsolutePath();
  }

  /** The folder and everything in it. */
  static void delete(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }
}
