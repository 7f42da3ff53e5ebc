package dev.platform.identity.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.platform.identity.config.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * docs/configuration.md's table cannot drift from the code. It names exactly the settings declared
 * in {@link Setting} (which {@code JndiSettings} reads), and its default column shows each declared
 * default ({@code `value`}) and each default {@code web.xml} gives, or says "empty" (or "unset",
 * "none") where there is none; web.xml's defaults are the declared ones.
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

  /** Every setting JndiSettings reads: the declared ones. */
  static Set<String> read() {
    return Arrays.stream(Setting.values())
        .map(Setting::entry)
        .collect(Collectors.toCollection(TreeSet::new));
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
  void whenASettingIsDeclaredThenTheTableHasItAndNothingElse() throws IOException {
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

  @Test
  void whenASettingDeclaresADefaultThenTheTableShowsIt() throws IOException {
    Map<String, String> documented = documented();
    for (Setting setting : Setting.values()) {
      String column = documented.get(setting.entry());
      if (setting.byDefault().isEmpty()) {
        assertTrue(
            column.startsWith("empty") || column.startsWith("unset") || column.startsWith("none"),
            setting.entry() + " declares no default; the table says " + column);
      } else {
        assertTrue(
            column.contains("`" + setting.byDefault() + "`"),
            setting.entry()
                + " declares the default "
                + setting.byDefault()
                + "; the table says "
                + column);
      }
    }
  }

  @Test
  void whenWebXmlGivesADefaultThenItIsTheDeclaredOne() throws Exception {
    Map<String, String> defaults = defaults();
    for (Setting setting : Setting.values()) {
      String value = defaults.get(setting.entry());
      if (setting.inWebXml()) {
        assertEquals(setting.byDefault(), value, setting.entry() + " in web.xml");
      } else if (value != null && !value.isEmpty()) {
        assertEquals(setting.byDefault(), value, setting.entry() + " in web.xml");
      }
    }
  }
}
