package dev.platform.identity.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.audit.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFolderTest {
  @TempDir Path temp;

  @Test
  void whenTheFolderIsMissingThenItIsCreatedOwnerOnlyWithoutAWarning() throws Exception {
    Path data = temp.resolve("install/data");
    try (LogCapture log = LogCapture.of(DataFolder.class.getName())) {
      DataFolder.prepare(data);

      assertEquals("rwx------", permissions(data));
      assertEquals(List.of(), log.messages());
    }
  }

  @Test
  void whenTheFolderIsOpenToOthersThenItIsTightenedAndTheLogSaysFromWhat() throws Exception {
    Path data = Files.createDirectory(temp.resolve("data"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (LogCapture log = LogCapture.of(DataFolder.class.getName())) {
      DataFolder.prepare(data);

      assertEquals("rwx------", permissions(data));
      assertEquals(1, log.messages().size());
      assertTrue(log.messages().get(0).contains(data + " was rwxr-xr-x"), log.messages().get(0));
    }
  }

  @Test
  void whenTheFolderIsOwnerOnlyAlreadyThenNothingIsSaid() throws Exception {
    Path data = Files.createDirectory(temp.resolve("data"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
    try (LogCapture log = LogCapture.of(DataFolder.class.getName())) {
      DataFolder.prepare(data);

      assertEquals("rwx------", permissions(data));
      assertEquals(List.of(), log.messages());
    }
  }

  private static String permissions(Path folder) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(folder));
  }
}
