package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * DESIGN "Packages": {@code verify} imports nothing else of the project, so other services can take
 * it as a small jar.
 */
class VerifyImportsTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/platform/identity/verify");

  /** Any name of the project outside {@code verify}: imports, static imports, qualified names. */
  private static final Pattern OTHER_PACKAGE =
      Pattern.compile("dev\\.platform\\.identity\\.(?!verify\\b)\\w+");

  @Test
  void whenVerifySourcesAreScannedThenNoneNamesAnotherProjectPackage() throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(SOURCES)) {
      files = listing.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no sources found in " + SOURCES.toAbsolutePath());

    List<String> offending = files.stream().flatMap(VerifyImportsTest::offendingLines).toList();

    assertEquals(List.of(), offending);
  }

  private static Stream<String> offendingLines(Path file) {
    try {
      return Files.readAllLines(file).stream()
          .filter(line -> OTHER_PACKAGE.matcher(line).find())
          .map(line -> file.getFileName() + ": " + line.strip());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
