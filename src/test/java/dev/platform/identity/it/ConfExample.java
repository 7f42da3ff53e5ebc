package dev.platform.identity.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@code conf/} example as a test deploys it: the file's own text with this machine's values put
 * in. Each replaced text must be in the file, so an edited example cannot leave a test silently
 * running on the example's values.
 */
final class ConfExample {
  private final Path file;
  private String text;

  private ConfExample(Path file, String text) {
    this.file = file;
    this.text = text;
  }

  static ConfExample read(String file) throws IOException {
    Path path = Path.of(file);
    return new ConfExample(path, Files.readString(path));
  }

  ConfExample replace(String example, String value) {
    if (!text.contains(example)) {
      throw new AssertionError(file + " no longer contains " + example);
    }
    text = text.replace(example, value);
    return this;
  }

  String text() {
    return text;
  }
}
