package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit's cache, where the WAR and the class-data archive the service maps are kept. */
class ClassDataArchiveTest {
  @TempDir Path home;

  @Test
  void whenTheCacheIsMadeThenItIsOwnerOnly() throws Exception {
    Path cache = ClassDataArchive.cache(home);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
  }

  @Test
  void whenTheCacheWasThereOpenToOthersThenItIsMadeOwnerOnly() throws Exception {
    Path open = Files.createDirectories(home.resolve(".cache/identity-testkit"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path cache = ClassDataArchive.cache(home);
    assertEquals(open, cache);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)));
  }

  @Test
  void whenTheJvmThatWroteAPartIsGoneThenThePartIsDeleted() throws Exception {
    Path cache = ClassDataArchive.cache(home);
    Process ended = new ProcessBuilder("true").start();
    ended.waitFor();
    Path orphan = Files.writeString(cache.resolve("launcher-" + ended.pid() + "-a.jsa.part"), "x");
    Path ours =
        Files.writeString(
            cache.resolve("launcher-" + ProcessHandle.current().pid() + "-b.jsa.part"), "x");
    Path foreign = Files.writeString(cache.resolve("launcher-c.jsa.part"), "x");
    ClassDataArchive.in(cache, "a class path");
    assertFalse(Files.exists(orphan));
    assertTrue(Files.exists(ours), "a part of a JVM still running is being written");
    assertTrue(Files.exists(foreign));
  }

  @Test
  void whenAJarOfTheClassPathIsRebuiltThenANewArchiveIsWritten() throws Exception {
    Path cache = ClassDataArchive.cache(home);
    Path jar = Files.writeString(home.resolve("launcher.jar"), "one build");
    ClassDataArchive first = ClassDataArchive.in(cache, jar.toString());
    String written = first.options().get(0);
    assertTrue(written.startsWith("-XX:ArchiveClassesAtExit="), written);
    Files.writeString(Path.of(written.substring(written.indexOf('=') + 1)), "an archive");
    first.childEnded();
    assertTrue(
        ClassDataArchive.in(cache, jar.toString())
            .options()
            .get(0)
            .startsWith("-XX:SharedArchiveFile="));
    Files.writeString(jar, "another build");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    ClassDataArchive second = ClassDataArchive.in(cache, jar.toString());
    String rebuilt = second.options().get(0);
    assertTrue(rebuilt.startsWith("-XX:ArchiveClassesAtExit="), rebuilt);
    Files.writeString(Path.of(rebuilt.substring(rebuilt.indexOf('=') + 1)), "another archive");
    second.childEnded();
    try (var files = Files.list(cache)) {
      assertEquals(1, files.count(), "the archive of the old jar is replaced, not kept beside");
    }
  }
}
