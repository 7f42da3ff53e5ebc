package dev.platform.identity.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 25: every relative link and image in README.md and docs/*.md leads somewhere, and every
 * {@code #anchor} names a heading of its target as GitHub makes the anchor.
 */
class DocsLinksTest {
  static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

  static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>(List.of(Path.of("README.md")));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  /** The text outside fenced code blocks, where a # line is a comment, not a heading. */
  static String prose(String markdown) {
    StringBuilder prose = new StringBuilder();
    boolean fenced = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced) {
        prose.append(line).append('\n');
      }
    }
    return prose.toString();
  }

  /** GitHub's anchors of a document's headings, with -1, -2 for repeats. */
  static Set<String> anchors(Path document) throws IOException {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher heading = HEADING.matcher(prose(Files.readString(document)));
    while (heading.find()) {
      String slug = slug(heading.group(1));
      int count = seen.merge(slug, 1, Integer::sum);
      anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
    }
    return anchors;
  }

  static String slug(String heading) {
    return heading
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }

  @Test
  void whenADocumentLinksToAFileOrAHeadingThenItExists() throws IOException {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path document : documents()) {
      Matcher link = LINK.matcher(prose(Files.readString(document)));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // http:, https:, mailto: leave the repository
        }
        checked++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? document : document.resolveSibling(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(document + ": " + target + " (no file " + resolved + ")");
          continue;
        }
        if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(document + ": " + target + " (no such heading in " + resolved + ")");
        }
      }
    }
    assertTrue(checked >= 20, checked + " links");
    assertTrue(broken.isEmpty(), String.join("\n", broken));
  }

  /** A relative path that climbs: {@code ../x}, {@code ../../x}, in a link or in plain text. */
  static final Pattern CLIMBING_PATH = Pattern.compile("(?:\\.\\./)+[A-Za-z0-9_.#/-]*");

  /**
   * Issue 36: someone who clones the repository finds everything a document points to. So no link
   * or path in README.md or docs/ (code blocks included) climbs out of the repository, as {@code
   * ../shared/SPEC.md} from README.md did.
   */
  @Test
  void whenADocumentNamesAPathThenItStaysInTheRepository() throws IOException {
    Path repository = Path.of("").toAbsolutePath();
    List<String> leaving = new ArrayList<>();
    int checked = 0;
    for (Path document : documents()) {
      Matcher path = CLIMBING_PATH.matcher(Files.readString(document));
      while (path.find()) {
        checked++;
        Path resolved =
            document.toAbsolutePath().resolveSibling(path.group().replaceFirst("#.*", ""));
        if (!resolved.normalize().startsWith(repository)) {
          leaving.add(document + ": " + path.group());
        }
      }
    }
    assertTrue(checked >= 1, checked + " climbing paths");
    assertTrue(leaving.isEmpty(), "outside the repository:\n" + String.join("\n", leaving));
  }

  /** A test class named in backquotes: {@code `FooTest`}, {@code `FooIT#whenX…`}. */
  static final Pattern NAMED_TEST = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))\\b");

  /**
   * A document that names a test as the proof of something names one that exists: a test moved or
   * renamed takes the documents with it (security.md named {@code ClientAssertionsEcdsaTest} after
   * its check had moved to {@code JwsAlgorithmEcdsaTest}).
   */
  @Test
  void whenADocumentNamesATestThenTheTestExists() throws IOException {
    Set<String> tests = new HashSet<>();
    try (Stream<Path> sources = Files.walk(Path.of("src/test/java"))) {
      sources
          .map(path -> path.getFileName().toString())
          .filter(name -> name.endsWith(".java"))
          .forEach(name -> tests.add(name.substring(0, name.length() - ".java".length())));
    }
    List<String> missing = new ArrayList<>();
    int checked = 0;
    for (Path document : documents()) {
      Matcher named = NAMED_TEST.matcher(Files.readString(document));
      while (named.find()) {
        checked++;
        if (!tests.contains(named.group(1))) {
          missing.add(document + ": " + named.group(1));
        }
      }
    }
    assertTrue(checked >= 50, checked + " tests named");
    assertTrue(missing.isEmpty(), "no such test:\n" + String.join("\n", missing));
  }

  @Test
  void whenAHeadingIsSluggedThenItIsGitHubsAnchor() {
    assertTrue(
        slug("All three rotations under load: `FleetIT`")
            .equals("all-three-rotations-under-load-fleetit"));
    assertTrue(
        slug("Against the targets (issue 10), H2").equals("against-the-targets-issue-10-h2"));
  }
}
