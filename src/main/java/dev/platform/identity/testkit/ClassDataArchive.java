package dev.platform.identity.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The service process's class-data archive (the JDK's application class-data sharing, JEP 350): the
 * first start of a given Java and class path writes the classes it loaded into an archive in the
 * kit's cache as it exits, and every later start maps them instead of loading them again, which
 * takes about 0.6 s off a 4 s start on two cores (docs/testing-with-identity.md "Speed").
 *
 * <p>The archive is keyed by the Java runtime and the child's class path (each jar's path, size and
 * time), which the JVM also checks itself: a stale or damaged archive is ignored (sharing is {@code
 * auto}), never an error. A first start writes to a name of its own and the archive is moved into
 * place only once that process has ended, so two test JVMs starting at once never share a
 * half-written file. {@code -Didentity.testkit.classDataSharing=false} turns it off.
 */
final class ClassDataArchive {
  static final String SWITCH_PROPERTY = "identity.testkit.classDataSharing";

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
    String runtimeAndPath =
        String.join(
            "\n",
            System.getProperty("java.home"),
            System.getProperty("java.vm.version"),
            classPath);
    // Each jar's size and time too, as the JVM checks them: an archive of a jar since rebuilt at
    // the same path (a SNAPSHOT, this repository's target/) is refused by every later start, and
    // one under the same name would never be written again. The new one replaces it (childEnded).
    StringBuilder jars = new StringBuilder();
    for (String entry : classPath.split(File.pathSeparator)) {
      try {
        Path jar = Path.of(entry);
        jars.append(Files.size(jar))
            .append(' ')
            .append(Files.getLastModifiedTime(jar).toMillis())
            .append('\n');
      } catch (IOException | RuntimeException unreadable) {
        jars.append("-\n"); // The child's start says what is wrong with it.
      }
    }
    Path archive =
        cache.resolve(
            "launcher-"
                + sha256(runtimeAndPath).substring(0, 16)
                + "-"
                + sha256(jars.toString()).substring(0, 16)
                + ".jsa");
    if (Files.isRegularFile(archive)) {
      return new ClassDataArchive(archive, null);
    }
    deleteOrphans(cache);
    return new ClassDataArchive(
        archive,
        cache.resolve(
            "launcher-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID() + ".jsa.part"));
  }

  /**
   * The archives being written for test JVMs that are gone: one killed ({@code kill -9}, a
   * cancelled build) never moves or deletes what its service writes as it exits, about 50 MB each.
   * A part's name begins with the pid of the JVM that started its service.
   */
  private static void deleteOrphans(Path cache) {
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(cache, "launcher-*.jsa.part")) {
      for (Path part : parts) {
        String[] name = part.getFileName().toString().split("-", 3);
        try {
          if (ProcessHandle.of(Long.parseLong(name[1])).isEmpty()) {
            Files.deleteIfExists(part);
          }
        } catch (NumberFormatException | IOException notOurs) {
          // A name the kit does not write, or one another start removed first: left as it is.
        }
      }
    } catch (IOException unreadable) {
      // The cache cannot be listed: the parts stay, the start goes on.
    }
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
        deleteOlder(archive);
      }
    } catch (IOException notWritten) {
      // The child ended before it wrote an archive (it was killed, or it failed to start): the
      // next start tries again.
    } finally {
      try {
        Files.deleteIfExists(written);
      } catch (IOException ignored) {
        // A file the next start that writes an archive deletes once this JVM is gone.
      }
    }
  }

  /** The archives of the same runtime and class path as {@code archive}, of jars since rebuilt. */
  private static void deleteOlder(Path archive) throws IOException {
    String name = archive.getFileName().toString();
    String runtimeAndPath = name.substring(0, name.lastIndexOf('-') + 1);
    try (DirectoryStream<Path> older =
        Files.newDirectoryStream(archive.getParent(), runtimeAndPath + "*.jsa")) {
      for (Path other : older) {
        if (!other.equals(archive)) {
          Files.deleteIfExists(other); // a service mapping it keeps it until it ends
        }
      }
    }
  }

  /** The kit's cache folder in the user's home (below). */
  static Path cache() throws IOException {
    return cache(Path.of(System.getProperty("user.home")));
  }

  /**
   * {@code home}'s {@code .cache/identity-testkit}, owner-only: made so, or made so again when it
   * was there before with more (a folder others can write would let them plant the class-data
   * archive the service maps). One of another user's is refused.
   */
  static Path cache(Path home) throws IOException {
    Path cache = home.resolve(".cache").resolve("identity-testkit");
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rwx------");
    if (!Files.isDirectory(cache)) {
      Files.createDirectories(cache, PosixFilePermissions.asFileAttribute(ownerOnly));
    }
    UserPrincipal owner = Files.getOwner(cache);
    if (!owner.equals(currentUser())) {
      throw new IllegalStateException(
          "the kit's cache " + cache + " belongs to " + owner + ": remove it, or set user.home");
    }
    if (!Files.getPosixFilePermissions(cache).equals(ownerOnly)) {
      Files.setPosixFilePermissions(cache, ownerOnly);
    }
    return cache;
  }

  /**
   * This process's user, as the owner of a file it makes ({@code user.name} is "?" where the user
   * has no name, as in a container run under a bare uid).
   */
  private static UserPrincipal currentUser() throws IOException {
    Path probe = Files.createTempFile("identity-testkit-", ".owner");
    try {
      return Files.getOwner(probe);
    } finally {
      Files.delete(probe);
    }
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
