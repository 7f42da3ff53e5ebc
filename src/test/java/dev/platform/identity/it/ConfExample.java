package dev.platform.identity.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

  /**
   * Runs this block with {@code sh} in the project's folder, as an operator runs a doc's step, with
   * {@code environment} added; its output in {@code folder/step.out}. Returns the exit code.
   *
   * @throws AssertionError with the output so far when it has not ended within {@code deadline}
   */
  int run(String step, Path folder, Map<String, String> environment, Duration deadline)
      throws IOException, InterruptedException {
    Path output = folder.resolve(step + ".out");
    ProcessBuilder builder =
        new ProcessBuilder("sh", "-c", text)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(step + " did not end:\n" + Files.readString(output));
    }
    return process.exitValue();
  }
}
