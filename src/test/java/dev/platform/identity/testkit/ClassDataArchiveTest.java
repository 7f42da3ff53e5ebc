package dev.platform.identity.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
