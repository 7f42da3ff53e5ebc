package dev.platform.identity.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Issue 25: docs/configuration.md's table cannot drift from the code. It names exactly the settings
 * that {@code JndiSettings} reads, and for each that {@code web.xml} gives a default, the table's
 * default column shows that value ({@code `value`}), or says "empty" where the value is empty.
 */
class ConfigurationDocTest {
  static final Path TABLE = Path.of("docs/configuration.md");
  static final Pattern ROW =
      Pattern.compile("^\\| `(identity/\\w+)` \\|[^|]*\\| ([^|]*) \\|", Pattern.MULTILINE);

  /** Each setting of the table, with its default column. */
  static Map<String, String> documented() throws IOException {
    Map<String, String> rows = new LinkedHashMap<>();
    Matcher row = ROW.matcher(Files.readString(TABLE));
    while (row.find()) {
      assertEquals(null, rows.put(row.group(1), row.group(2).strip()), "twice: " + row.group(1));
    }
    return rows;
  }

  /** Every setting name JndiSettings reads, as its source spells it. */
  static Set<String> read() throws IOException {
    Set<String> names = new TreeSet<>();
    Matcher name =
        Pattern.compile("\"(identity/\\w+)\"")
            .matcher(
                Files.readString(
                    Path.of("src/main/java/dev/platform/identity/config/JndiSettings.java")));
    while (name.find()) {
      names.add(name.group(1));
    }
    return names;
  }

  /** web.xml's env-entries: name to default value. */
  static Map<String, String> defaults() throws Exception {
    Map<String, String> defaults = new LinkedHashMap<>();
    NodeList entries =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(Path.of("src/main/webapp/WEB-INF/web.xml").toFile())
            .getElementsByTagName("env-entry");
    for (int i = 0; i < entries.getLength(); i++) {
      Element entry = (Element) entries.item(i);
      defaults.put(
          entry.getElementsByTagName("env-entry-name").item(0).getTextContent().strip(),
          entry.getElementsByTagName("env-entry-value").item(0).getTextContent().strip());
    }
    return defaults;
  }

  @Test
  void whenTheCodeReadsASettingThenTheTableHasItAndNothingElse() throws IOException {
    Set<String> read = read();
    assertTrue(read.size() >= 30, read.toString());
    assertEquals(read, new TreeSet<>(documented().keySet()));
  }

  @Test
  void whenWebXmlGivesADefaultThenTheTableShowsThatDefault() throws Exception {
    Map<String, String> documented = documented();
    for (Map.Entry<String, String> entry : defaults().entrySet()) {
      String column = documented.get(entry.getKey());
      assertTrue(column != null, entry.getKey() + " is in web.xml but not in " + TABLE);
      if (entry.getValue().isEmpty()) {
        assertTrue(
            column.startsWith("empty") || column.startsWith("unset"),
            entry.getKey() + ": web.xml's default is empty; the table says " + column);
      } else {
        assertTrue(
            column.contains("`" + entry.getValue() + "`"),
            entry.getKey()
                + ": web.xml's default is "
                + entry.getValue()
                + "; the table says "
                + column);
      }
    }
  }
}
