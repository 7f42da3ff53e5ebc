package dev.platform.identity.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shell blocks of one part of README.md or a page of docs/, as a test runs them: found by their
 * first line, so that a test runs what the README says and an edited README cannot leave a test
 * running an old copy of a step.
 */
final class ReadmeSteps {
  private final String part;
  private final String text;

  private ReadmeSteps(String part, String text) {
    this.part = part;
    this.text = text;
  }

  /** README.md from the heading {@code from} up to the heading {@code to}. */
  static ReadmeSteps between(String from, String to) throws IOException {
    return in("README.md", from, to);
  }

  /**
   * The Markdown file {@code file} (README.md or a page of docs/) from the heading {@code from} up
   * to the heading {@code to}, or to its end where {@code to} is null.
   */
  static ReadmeSteps in(String file, String from, String to) throws IOException {
    String document = Files.readString(Path.of(file));
    int start = document.indexOf("\n" + from + "\n");
    int end = to == null ? document.length() : document.indexOf("\n" + to + "\n", start);
    if (start < 0 || end < 0) {
      throw new AssertionError(file + " has no part from '" + from + "' to '" + to + "'");
    }
    return new ReadmeSteps(file + " " + from, document.substring(start, end));
  }

  /** The one {@code sh} block whose first line starts with {@code firstLine}. */
  ConfExample block(String firstLine) {
    List<String> found = blocks().stream().filter(block -> block.startsWith(firstLine)).toList();
    assertEquals(1, found.size(), part + ": sh blocks starting with " + firstLine);
    return ConfExample.of(part + " block '" + firstLine + "'", found.get(0));
  }

  /** The one line of a {@code sh} block that contains {@code text}. */
  ConfExample line(String text) {
    List<String> found =
        blocks().stream()
            .flatMap(block -> block.lines())
            .filter(line -> line.contains(text))
            .toList();
    assertEquals(1, found.size(), part + ": lines of sh blocks with " + text);
    return ConfExample.of(part + " line '" + text + "'", found.get(0) + "\n");
  }

  /**
   * The one fenced block of {@code language} (e.g. {@code properties}): a file's content that the
   * part shows and a test writes as shown.
   */
  String fenced(String language) {
    String fence = "\n```" + language + "\n";
    int at = text.indexOf(fence);
    assertEquals(
        at >= 0 ? at : -1,
        text.lastIndexOf(fence),
        part + ": one ```" + language + " block, not " + (at < 0 ? "none" : "several"));
    if (at < 0) {
      throw new AssertionError(part + " has no ```" + language + " block");
    }
    return text.substring(at + fence.length(), text.indexOf("\n```\n", at + 1) + 1);
  }

  /** Fails unless the part says {@code words} (a setting the test applies as the README says). */
  String says(String words) {
    if (!text.contains(words)) {
      throw new AssertionError(part + " no longer says " + words);
    }
    return words;
  }

  private List<String> blocks() {
    List<String> blocks = new ArrayList<>();
    int at = 0;
    while ((at = text.indexOf("\n```sh\n", at)) >= 0) {
      int end = text.indexOf("\n```\n", at + 1);
      blocks.add(text.substring(at + "\n```sh\n".length(), end + 1));
      at = end;
    }
    return blocks;
  }
}
