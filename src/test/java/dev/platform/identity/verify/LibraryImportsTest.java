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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DESIGN "Packages": {@code verify}, {@code client} and {@code jose}, subpackages included, import
 * nothing else of the project, so other services can take them as a small jar. The servlet and
 * JAX-RS APIs are {@code provided} for the filters only: each filter package uses its own API
 * alone, and the rest of the libraries neither, so a service without them can still verify and
 * fetch tokens. They may name each other: the jar holds all three ({@code client} takes {@link
 * HttpsOnly} from {@code verify}, both take the JOSE rules from {@code jose}).
 */
class LibraryImportsTest {
  private static final Path ROOT = Path.of("src/main/java/dev/platform/identity");

  @ParameterizedTest
  @ValueSource(strings = {"verify", "client", "jose"})
  void whenLibrarySourcesAreScannedThenNoneNamesAnotherProjectPackage(String library) {
    Pattern otherPackage =
        Pattern.compile("dev\\.platform\\.identity\\.(?!(verify|client|jose)\\b)\\w+");

    assertEquals(List.of(), offending(sources(ROOT.resolve(library), true), otherPackage));
  }

  @ParameterizedTest
  @CsvSource({
    "verify, false, jakarta\\.(servlet|ws\\.rs|annotation)\\.",
    "client, true, jakarta\\.(servlet|ws\\.rs|annotation)\\.",
    "jose, true, jakarta\\.(servlet|ws\\.rs|annotation)\\.",
    "verify/servlet, true, jakarta\\.(ws\\.rs|annotation)\\.",
    "verify/jaxrs, true, jakarta\\.servlet\\.",
  })
  void whenLibrarySourcesAreScannedThenEachUsesOnlyItsOwnProvidedApi(
      String folder, boolean subpackages, String forbidden) {
    List<Path> files = sources(ROOT.resolve(folder), subpackages);

    assertEquals(List.of(), offending(files, Pattern.compile(forbidden)));
  }

  private static List<Path> sources(Path folder, boolean subpackages) {
    List<Path> files;
    try (Stream<Path> listing = subpackages ? Files.walk(folder) : Files.list(folder)) {
      files = listing.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertFalse(files.isEmpty(), "no sources found in " + folder.toAbsolutePath());
    return files;
  }

  /**
   * A string literal: it names a thing, such as the servlet attribute of the client certificate,
   * and loads no API, so the scan skips it.
   */
  private static final Pattern STRING = Pattern.compile("\"(\\\\.|[^\"\\\\])*\"");

  private static List<String> offending(List<Path> files, Pattern pattern) {
    return files.stream().flatMap(file -> offendingLines(file, pattern)).toList();
  }

  private static Stream<String> offendingLines(Path file, Pattern pattern) {
    try {
      return Files.readAllLines(file).stream()
          .filter(line -> pattern.matcher(STRING.matcher(line).replaceAll("\"\"")).find())
          .map(line -> ROOT.relativize(file) + ": " + line.strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
