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
  private final String source;
  private String text;

  private ConfExample(String source, String text) {
    this.source = source;
    this.text = text;
  }

  static ConfExample read(String file) throws IOException {
    return of(file, Files.readString(Path.of(file)));
  }

  /** {@code text} from {@code source} (a file, a README block), named in failures. */
  static ConfExample of(String source, String text) {
    return new ConfExample(source, text);
  }

  ConfExample replace(String example, String value) {
    if (!text.contains(example)) {
      throw new AssertionError(source + " no longer contains " + example);
    }
    text = text.replace(example, value);
    return this;
  }

  String text() {
    return text;
  }
}
