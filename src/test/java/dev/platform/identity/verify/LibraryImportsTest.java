package dev.platform.identity.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DESIGN "Packages": {@code verify} and {@code client} import nothing else of the project, so other
 * services can take them as a small jar. They may name each other: the jar holds both ({@code
 * client} takes {@link HttpsOnly} from {@code verify}).
 */
class LibraryImportsTest {
  @ParameterizedTest
  @ValueSource(strings = {"verify", "client"})
  void whenLibrarySourcesAreScannedThenNoneNamesAnotherProjectPackage(String library)
      throws IOException {
    Path sources = Path.of("src/main/java/dev/platform/identity", library);
    Pattern otherPackage =
        Pattern.compile("dev\\.platform\\.identity\\.(?!(verify|client)\\b)\\w+");
    List<Path> files;
    try (Stream<Path> listing = Files.list(sources)) {
      files = listing.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    assertFalse(files.isEmpty(), "no sources found in " + sources.toAbsolutePath());

    List<String> offending =
        files.stream().flatMap(file -> offendingLines(file, otherPackage)).toList();

    assertEquals(List.of(), offending);
  }

  private static Stream<String> offendingLines(Path file, Pattern otherPackage) {
    try {
      return Files.readAllLines(file).stream()
          .filter(line -> otherPackage.matcher(line).find())
          .map(line -> file.getFileName() + ": " + line.strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
