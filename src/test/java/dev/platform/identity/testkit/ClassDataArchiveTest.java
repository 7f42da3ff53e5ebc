package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
