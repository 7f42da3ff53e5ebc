package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataArchiveTest {
  @TempDir Path cache;

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
  void whenAPartIsAnHourOldThenItIsRemovedAndAFreshOneIsKept() throws IOException {
    Path abandoned = Files.createFile(cache.resolve("launcher-old.jsa.part"));
    Files.setLastModifiedTime(abandoned, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
    Path writing = Files.createFile(cache.resolve("launcher-now.jsa.part"));
    Path other = Files.createFile(cache.resolve("identity-0123.war"));
    Files.setLastModifiedTime(other, FileTime.from(Instant.now().minus(Duration.ofDays(2))));

    ClassDataArchive.removeAbandoned(cache);

    assertFalse(Files.exists(abandoned));
    assertTrue(Files.exists(writing));
    assertTrue(Files.exists(other));
  }

  @Test
  void whenSwitchedOffThenNoOption() {
    System.setProperty(ClassDataArchive.SWITCH_PROPERTY, "false");

    ClassDataArchive off = ClassDataArchive.in(cache, "a.jar");
    off.childEnded();

    assertEquals(List.of(), off.options());
  }
}
