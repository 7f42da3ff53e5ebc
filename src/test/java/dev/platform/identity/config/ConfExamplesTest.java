package dev.platform.identity.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The examples in conf/ name every setting, and in the form that actually overrides web.xml. */
class ConfExamplesTest {
  static Set<String> settingNames() throws IllegalAccessException {
    Set<String> names = new TreeSet<>();
    for (Field field : JndiSettings.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        names.add((String) field.get(null));
      }
    }
    return names;
  }

  static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("conf/tomcat"))) {
      return files.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
    }
  }

  @Test
  void whenExamplesAreReadThenEachSetsEverySettingWithOverrideFalse() throws Exception {
    List<Path> examples = examples();
    assertEquals(2, examples.size(), examples.toString());
    for (Path example : examples) {
      NodeList entries =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(example.toFile())
              .getElementsByTagName("Environment");
      Set<String> named = new TreeSet<>();
      List<String> overridable = new ArrayList<>();
      for (int i = 0; i < entries.getLength(); i++) {
        Element entry = (Element) entries.item(i);
        named.add(entry.getAttribute("name"));
        if (!"false".equals(entry.getAttribute("override"))) {
          overridable.add(entry.getAttribute("name"));
        }
      }
      assertEquals(settingNames(), named, example.toString());
      assertTrue(overridable.isEmpty(), example + " lets web.xml win for " + overridable);
    }
  }
}
