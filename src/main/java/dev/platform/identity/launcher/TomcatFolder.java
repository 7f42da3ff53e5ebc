package dev.platform.identity.launcher;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Tomcat's base folder (its work and expanded-WAR files): {@code tomcat} under the data folder,
 * emptied at start and deleted at stop. A temporary folder per start was never deleted; one fixed
 * folder also leaves at most one behind when the process is killed.
 */
final class TomcatFolder {
  static final String NAME = "tomcat";

  private TomcatFolder() {}

  /** An empty {@code data/tomcat} with the {@code webapps} folder Tomcat expects. */
  static Path fresh(Path data) throws IOException {
    Path base = data.resolve(NAME);
    delete(base);
    Files.createDirectories(base.resolve("webapps"));
    return base;
  }

  /** Deletes {@code folder} and everything in it; nothing when it is not there. */
  static void delete(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    Files.walkFileTree(
        folder,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            deleteIfThere(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            deleteIfThere(dir);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private static void deleteIfThere(Path path) throws IOException {
    try {
      Files.delete(path);
    } catch (NoSuchFileException gone) {
      // Tomcat removed it itself while stopping
    }
  }
}
