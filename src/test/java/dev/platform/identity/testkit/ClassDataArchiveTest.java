package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit's cache, where the WAR and the class-data archive the service maps are kept. */
class ClassDataArchiveTest {
  @TempDir Path home;
  @TempDir Path cache;

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

  @AfterEach
  void clearSwitch() {
    System.clearProperty(ClassDataArchive.SWITCH_PROPERTY);
  }

  @Test
  void whenNoArchiveIsThereThenTheChildWritesOneThatLaterStartsMap() throws IOException {
    ClassDataArchive first = ClassDataArchive.in(cache, "a.jar:b.jar");
    String option = first.options().get(0);
    assertTrue(option.startsWith("-XX:ArchiveClassesAtExit=" + cache.resolve("launcher-")), option);
    Path written = Path.of(option.substring(option.indexOf('=') + 1));
    Files.write(written, new byte[] {1, 2, 3}); // as the child's JVM does at exit

    first.childEnded();

    assertFalse(Files.exists(written));
    List<String> next = ClassDataArchive.in(cache, "a.jar:b.jar").options();
    assertEquals(1, next.size());
    assertTrue(next.get(0).startsWith("-XX:SharedArchiveFile="), next.toString());
    assertTrue(Files.size(Path.of(next.get(0).substring(next.get(0).indexOf('=') + 1))) == 3);
  }

  @Test
  void whenTheChildWroteNothingThenNoArchiveAndTheNextStartWritesAgain() throws IOException {
    ClassDataArchive first = ClassDataArchive.in(cache, "a.jar");
    String option = first.options().get(0);
    Files.createFile(Path.of(option.substring(option.indexOf('=') + 1))); // empty: killed early

    first.childEnded();
    first.childEnded(); // twice: nothing left to move, nothing thrown

    assertTrue(
        ClassDataArchive.in(cache, "a.jar")
            .options()
            .get(0)
            .startsWith("-XX:ArchiveClassesAtExit="));
    try (var files = Files.list(cache)) {
      assertEquals(List.of(), files.toList());
    }
  }

  @Test
  void whenTheClassPathDiffersThenAnotherClassPathsArchiveIsNotMapped() throws IOException {
    ClassDataArchive one = ClassDataArchive.in(cache, "a.jar");
    String option = one.options().get(0);
    Files.write(Path.of(option.substring(option.indexOf('=') + 1)), new byte[] {1});
    one.childEnded();

    assertTrue(
        ClassDataArchive.in(cache, "b.jar")
            .options()
            .get(0)
            .startsWith("-XX:ArchiveClassesAtExit="));
    assertTrue(
        ClassDataArchive.in(cache, "a.jar").options().get(0).startsWith("-XX:SharedArchiveFile="));
  }

  @Test
  void whenSwitchedOffThenNoOption() {
    System.setProperty(ClassDataArchive.SWITCH_PROPERTY, "false");

    ClassDataArchive off = ClassDataArchive.in(cache, "a.jar");
    off.childEnded();

    assertEquals(List.of(), off.options());
  }
}
