package dev.platform.identity.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The service process's class-data archive (the JDK's application class-data sharing, JEP 350): the
 * first start of a given Java and class path writes the classes it loaded into an archive in the
 * kit's cache as it exits, and every later start maps them instead of loading them again, which
 * takes about 0.6 s off a 4 s start on two cores (docs/testing-with-identity.md "Speed").
 *
 * <p>The archive is keyed by the Java runtime and the child's class path, which the JVM also checks
 * itself: a stale or damaged archive is ignored (sharing is {@code auto}), never an error. A first
 * start writes to a name of its own and the archive is moved into place only once that process has
 * ended, so two test JVMs starting at once never share a half-written file. {@code
 * -Didentity.testkit.classDataSharing=false} turns it off.
 */
final class ClassDataArchive {
  static final String SWITCH_PROPERTY = "identity.testkit.classDataSharing";

  static final Duration ABANDONED_AFTER = Duration.ofHours(1);

  private final Path archive;
  private final Path written;

  private ClassDataArchive(Path archive, Path written) {
    this.archive = archive;
    this.written = written;
  }

  /** The archive for a child on {@code classPath} with this JVM's runtime, in {@code cache}. */
  static ClassDataArchive in(Path cache, String classPath) {
    if ("false".equalsIgnoreCase(System.getProperty(SWITCH_PROPERTY, "true"))) {
      return new ClassDataArchive(null, null);
    }
    String key =
        String.join(
            "\n",
            System.getProperty("java.home"),
            System.getProperty("java.vm.version"),
            classPath);
    Path archive = cache.resolve("launcher-" + sha256(key).substring(0, 16) + ".jsa");
    removeAbandoned(cache);
    if (Files.isRegularFile(archive)) {
      return new ClassDataArchive(archive, null);
    }
    return new ClassDataArchive(
        archive, cache.resolve("launcher-" + UUID.randomUUID() + ".jsa.part"));
  }

  /** The child's options: map the archive, or write it at exit, or nothing when it is off. */
  List<String> options() {
    if (archive == null) {
      return List.of();
    }
    if (written == null) {
      return List.of("-XX:SharedArchiveFile=" + archive);
    }
    return List.of("-XX:ArchiveClassesAtExit=" + written);
  }

  /** Once the child has ended: what it wrote becomes the archive, if no other start was first. */
  void childEnded() {
    if (written == null) {
      return;
    }
    try {
      if (Files.size(written) > 0 && !Files.exists(archive)) {
        Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException notWritten) {
      // The child ended before it wrote an archive (it was killed, or it failed to start): the
      // next start tries again.
    } finally {
      try {
        Files.deleteIfExists(written);
      } catch (IOException ignored) {
        // A file the next clean-up of the cache removes; it is never read.
      }
    }
  }

  /**
   * Deletes the half-written archives of children that never ended cleanly (their test JVM was
   * killed): an hour old, so that no start that is still writing its own loses it.
   */
  static void removeAbandoned(Path cache) {
    Instant before = Instant.now().minus(ABANDONED_AFTER);
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(cache, "launcher-*.jsa.part")) {
      for (Path part : parts) {
        try {
          if (Files.getLastModifiedTime(part).toInstant().isBefore(before)) {
            Files.deleteIfExists(part);
          }
        } catch (IOException gone) {
          // Another start removed or moved it.
        }
      }
    } catch (IOException unreadable) {
      // A cache folder that cannot be listed: nothing is removed, and nothing else depends on it.
    }
  }

  /** The kit's cache folder in the user's home, made owner-only when it is made. */
  static Path cache() throws IOException {
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "identity-testkit");
    if (!Files.isDirectory(cache)) {
      Files.createDirectories(
          cache,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    return cache;
  }

  static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
